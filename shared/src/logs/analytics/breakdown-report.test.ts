import { describe, expect, it } from 'vitest';
import type { ClientUsageRow, ErrorCountRow } from '../requests/breakdown-query';
import { clientReport, errorReport } from './breakdown-report';

function client(
  name: string | null,
  version: string | null,
  over: Partial<ClientUsageRow> = {},
): ClientUsageRow {
  return {
    clientName: name,
    clientVersion: version,
    requests: 1,
    errors: 0,
    promptTokens: 10,
    completionTokens: 5,
    cacheReadTokens: 3,
    cacheWriteTokens: 2,
    reasoningTokens: 1,
    costUsd: 0.1,
    unpricedRequests: 0,
    ...over,
  };
}

describe('clientReport', () => {
  it('most requests first, then by name and version with unnamed clients last', () => {
    const { data } = clientReport([
      client(null, null, { requests: 2 }),
      client('codex', '0.171.0', { requests: 2 }),
      client('claude-code', '2.1.4'),
      client('claude-code', '2.1.3'),
      client('opencode', '1.18.0', { requests: 5 }),
    ]);
    expect(data.map((c) => [c.client_name, c.client_version])).toEqual([
      ['opencode', '1.18.0'],
      ['codex', '0.171.0'],
      [null, null],
      ['claude-code', '2.1.3'],
      ['claude-code', '2.1.4'],
    ]);
  });

  it('in snake_case; a cost only when some request was priced, to the nano-dollar', () => {
    const { data } = clientReport([
      client('codex', '1', { requests: 3, unpricedRequests: 1, costUsd: 0.1 + 0.2, errors: 2 }),
      client('claude-code', '2', { requests: 2, unpricedRequests: 2, costUsd: 0 }),
    ]);
    expect(data).toEqual([
      {
        client_name: 'codex',
        client_version: '1',
        requests: 3,
        errors: 2,
        prompt_tokens: 10,
        completion_tokens: 5,
        cache_read_tokens: 3,
        cache_write_tokens: 2,
        reasoning_tokens: 1,
        cost_usd: 0.3,
        unpriced_requests: 1,
      },
      expect.objectContaining({ client_name: 'claude-code', cost_usd: null, unpriced_requests: 2 }),
    ]);
  });
});

describe('errorReport', () => {
  it('most requests first, then type, client and status', () => {
    const row = (errorType: string | null, clientName: string | null, statusCode: number, requests = 1) =>
      ({ errorType, clientName, statusCode, requests }) satisfies ErrorCountRow;
    const { data } = errorReport([
      row('rate_limit_error', 'codex', 429),
      row('invalid_request_error', 'codex', 400, 4),
      row(null, 'codex', 499),
      row('api_error', null, 502),
      row('api_error', 'codex', 504),
      row('api_error', 'codex', 502),
    ]);
    expect(data).toEqual([
      { error_type: 'invalid_request_error', client_name: 'codex', status_code: 400, requests: 4 },
      { error_type: 'api_error', client_name: 'codex', status_code: 502, requests: 1 },
      { error_type: 'api_error', client_name: 'codex', status_code: 504, requests: 1 },
      { error_type: 'api_error', client_name: null, status_code: 502, requests: 1 },
      { error_type: 'rate_limit_error', client_name: 'codex', status_code: 429, requests: 1 },
      { error_type: null, client_name: 'codex', status_code: 499, requests: 1 },
    ]);
  });
});
