// The gateway request-log view: GET /api/gateway/logs (admin) over the configured store —
// ClickHouse, and Postgres when CLICKHOUSE_URL is empty. Records go in through the console's own
// store (deps.requestLogs, the same adapter the gateway writes with); every answer is also
// checked against the OpenAPI document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestLogRecord } from '../../shared/src/logs/requests/record';
import { LOG_VIEW_STORES, type LogQuery, type LogView, shortIds, startLogView } from '../helpers/log-view';

// Its own ClickHouse database, so totals are exact whatever else shares the server.
const CH_DATABASE = 'sluice_it_console_gateway_logs';
const USER = '8a000000-0000-4000-8000-000000000001';
const KEY = '9a000000-0000-4000-8000-000000000001';
const OTHER_KEY = '9b000000-0000-4000-8000-000000000002';
const ROUTE = 'aa000000-0000-4000-8000-000000000001';
const T0 = Date.UTC(2025, 3, 1, 10, 0, 0, 250);

/** Who called, by i % 3: Codex, a client without a User-Agent, and Claude Code. */
const CLIENTS = [
  { clientName: 'codex', clientVersion: '0.171.0', userAgent: 'codex_exec/0.171.0 (Ubuntu 24.4.0; x86_64)' },
  { clientName: null, clientVersion: null, userAgent: null },
  { clientName: 'claude-code', clientVersion: '2.1.3', userAgent: 'claude-cli/2.1.3 (external, cli)' },
] as const;

/**
 * Twelve requests a minute apart: two models, two providers, three clients, a few failures
 * (one refused at validation) and unpriced rows.
 */
function records(): RequestLogRecord[] {
  return Array.from({ length: 12 }, (_, i) => ({
    id: `d${String(i).padStart(7, '0')}-0000-4000-8000-000000000000`,
    createdAt: new Date(T0 + i * 60_000),
    userId: USER,
    apiKeyId: i % 2 === 0 ? KEY : OTHER_KEY,
    endpoint: i % 3 === 0 ? ('/v1/messages' as const) : ('/v1/chat/completions' as const),
    model: i % 3 === 0 ? 'claude-test' : 'gpt-test',
    provider: i % 3 === 0 ? 'anthropic' : 'openai-main',
    providerType: i % 3 === 0 ? 'anthropic' : 'openai',
    upstreamModel: null,
    routeId: ROUTE,
    stream: i % 2 === 1,
    statusCode: i % 4 === 0 ? 502 : i === 5 ? 400 : 200,
    errorType: i % 4 === 0 ? 'upstream_error' : i === 5 ? 'invalid_request_error' : null,
    errorMessage:
      i % 4 === 0 ? 'upstream said no' : i === 5 ? "tools[4]: type web_search can't be sent" : null,
    promptTokens: 10 * i,
    completionTokens: 5 * i,
    cachedTokens: 3 * i,
    cacheWriteTokens: 2 * i,
    cacheWriteHourTokens: i % 2,
    reasoningTokens: i,
    totalTokens: 15 * i,
    weightedTokens: 15 * i,
    costUsd: i % 5 === 0 ? null : i / 100,
    unpriced: i % 5 === 0,
    latencyMs: (i * 37) % 100,
    upstreamLatencyMs: i % 4 === 0 ? null : 10,
    cacheHit: false,
    attempts: 1,
    clientAborted: false,
    usageEstimated: false,
    uncounted: false,
    guardrail: null,
    reasoningEffort: i % 2 === 0 ? null : 'medium',
    ...CLIENTS[i % 3]!,
    sessionId: i % 3 === 1 ? null : `session-${i % 2}`,
    ...(i === 11 ? { userId: null, apiKeyId: null, provider: null, providerType: null, routeId: null } : {}),
  }));
}

describe.each(LOG_VIEW_STORES)('GET /api/gateway/logs ($store)', ({ store }) => {
  let view: LogView;
  const seeded = records();
  const logs = (query: LogQuery = {}, token?: string) => view.logs(query, token);
  const ids = shortIds;

  beforeAll(async () => {
    view = await startLogView({
      name: 'console_gateway_logs',
      store,
      clickhouseDatabase: CH_DATABASE,
      path: '/api/gateway/logs',
      seed: (h) => h.deps.requestLogs.insert(seeded),
    });
  }, 60_000);
  afterAll(async () => {
    await view?.h.close();
  });

  it('lists newest first with the total, offset 0 and limit 50 by default, in snake_case', async () => {
    const res = await logs();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 12, offset: 0, limit: 50 });
    expect(ids(res)).toEqual(seeded.map((r) => r.id.slice(0, 8)).reverse());
    expect(res.body.entries[0]).toEqual({
      id: 'd0000011-0000-4000-8000-000000000000',
      created_at: new Date(T0 + 11 * 60_000).toISOString(),
      user_id: null,
      api_key_id: null,
      endpoint: '/v1/chat/completions',
      model: 'gpt-test',
      provider: null,
      provider_type: null,
      upstream_model: null,
      route_id: null,
      stream: true,
      status_code: 200,
      error_type: null,
      error_message: null,
      prompt_tokens: 110,
      completion_tokens: 55,
      cached_tokens: 33,
      cache_write_tokens: 22,
      cache_write_hour_tokens: 1,
      reasoning_tokens: 11,
      total_tokens: 165,
      weighted_tokens: 165,
      cost_usd: 0.11,
      unpriced: false,
      latency_ms: 7,
      upstream_latency_ms: 10,
      cache_hit: false,
      attempts: 1,
      client_aborted: false,
      usage_estimated: false,
      uncounted: false,
      guardrail: null,
      reasoning_effort: 'medium',
      client_name: 'claude-code',
      client_version: '2.1.3',
      user_agent: 'claude-cli/2.1.3 (external, cli)',
      session_id: 'session-1',
    });
    expect(res.body.entries.at(-1)).toMatchObject({
      user_id: USER,
      api_key_id: KEY,
      route_id: ROUTE,
      status_code: 502,
      error_message: 'upstream said no',
      cost_usd: null,
      unpriced: true,
    });
  });

  it('filters by model, provider, user, API key, status code and an inclusive date range', async () => {
    expect((await logs({ model: 'claude-test' })).body.total).toBe(4);
    expect((await logs({ model: 'claude' })).body.total).toBe(0);
    expect((await logs({ provider: 'openai-main' })).body.total).toBe(7);
    expect((await logs({ user_id: USER })).body.total).toBe(11);
    expect(ids(await logs({ api_key_id: OTHER_KEY, model: 'claude-test' }))).toEqual([
      'd0000009',
      'd0000003',
    ]);
    expect(ids(await logs({ status_code: 502 }))).toEqual(['d0000008', 'd0000004', 'd0000000']);
    expect(ids(await logs({ status_code: 502, provider: 'anthropic' }))).toEqual(['d0000000']);
    // A class of codes: 4xx is 400..499, 5xx 500..599.
    expect(ids(await logs({ status_code: '5xx' }))).toEqual(['d0000008', 'd0000004', 'd0000000']);
    expect(ids(await logs({ status_code: '4xx' }))).toEqual(['d0000005']);
    expect((await logs({ status_code: '2xx' })).body.total).toBe(8);
    expect((await logs({ status_code: '3xx' })).body.total).toBe(0);
    const from = new Date(T0 + 2 * 60_000).toISOString();
    const to = new Date(T0 + 4 * 60_000).toISOString();
    expect(ids(await logs({ from, to }))).toEqual(['d0000004', 'd0000003', 'd0000002']);
    expect((await logs({ from: '2025-04-01', to: '2025-04-01T10:00:00.250+00:00' })).body.total).toBe(1);
    expect((await logs({ to: '2025-04-01T10:00:00.249Z' })).body.total).toBe(0);
  });

  it('filters by exact client name and error type, refused requests included', async () => {
    expect(ids(await logs({ client_name: 'codex' }))).toEqual([
      'd0000009',
      'd0000006',
      'd0000003',
      'd0000000',
    ]);
    expect((await logs({ client_name: 'Codex' })).body.total).toBe(0);
    expect((await logs({ client_name: 'claude' })).body.total).toBe(0);
    const refused = await logs({ error_type: 'invalid_request_error' });
    expect(ids(refused)).toEqual(['d0000005']);
    expect(refused.body.entries[0]).toMatchObject({
      status_code: 400,
      client_name: 'claude-code',
      client_version: '2.1.3',
      reasoning_effort: 'medium',
    });
    expect(ids(await logs({ error_type: 'upstream_error', client_name: 'codex' }))).toEqual(['d0000000']);
    expect(ids(await logs({ error_type: 'upstream_error', status_code: 502 }))).toEqual([
      'd0000008',
      'd0000004',
      'd0000000',
    ]);
  });

  it('lists the requests of unpriced models alone (unpriced=true), what analytics leaves out of its costs', async () => {
    const unpriced = await logs({ unpriced: 'true' });
    expect(ids(unpriced)).toEqual(['d0000010', 'd0000005', 'd0000000']);
    expect(unpriced.body.entries.every((e: { cost_usd: number | null }) => e.cost_usd === null)).toBe(true);
    expect(ids(await logs({ unpriced: 'true', status_code: '5xx' }))).toEqual(['d0000000']);
    expect((await logs({ unpriced: 'false' })).body.total).toBe(9);
  });

  it('sorts by cost_usd (unpriced last) and latency_ms, descending, ties by id', async () => {
    const byCost = await logs({ sort_by: 'cost_usd' });
    expect(ids(byCost).slice(0, 2)).toEqual(['d0000011', 'd0000009']);
    expect(ids(byCost).slice(-3)).toEqual(['d0000010', 'd0000005', 'd0000000']);
    const byLatency = await logs({ sort_by: 'latency_ms' });
    const latencies = byLatency.body.entries.map((e: { latency_ms: number }) => e.latency_ms);
    expect(latencies).toEqual([...latencies].sort((a, b) => b - a));
    expect(latencies[0]).toBe(seeded.reduce((max, r) => Math.max(max, r.latencyMs), 0));
  });

  it('pages with limit and offset; the total stays that of every match', async () => {
    const page = await logs({ limit: 5, offset: 5 });
    expect(page.body).toMatchObject({ total: 12, limit: 5, offset: 5 });
    expect(ids(page)).toEqual(['d0000006', 'd0000005', 'd0000004', 'd0000003', 'd0000002']);
    const end = await logs({ limit: 200, offset: 12 });
    expect(end.body).toEqual({ total: 12, offset: 12, limit: 200, entries: [] });
  });

  it('refuses bad parameters with 422', async () => {
    const bads: LogQuery[] = [
      { limit: 201 },
      { limit: 0 },
      { limit: 'ten' },
      { offset: -1 },
      { status_code: 'ok' },
      { status_code: 200.5 },
      { status_code: 99 },
      { status_code: '6xx' },
      { status_code: 'xx' },
      { unpriced: 'yes' },
      { sort_by: 'model' },
      { user_id: 'not-a-uuid' },
      { api_key_id: '123' },
      { model: '' },
      { client_name: '' },
      { error_type: 'x'.repeat(257) },
      { from: 'yesterday' },
      { from: '2025-04-02', to: '2025-04-01' },
    ];
    for (const bad of bads) {
      const res = await logs(bad);
      expect(res.status, JSON.stringify(bad)).toBe(422);
      expect(res.body.error.type).toBe('validation_error');
    }
  });

  it('is for admins only: 401 without a token, 403 for a user', async () => {
    expect((await logs({}, '')).status).toBe(401);
    const res = await logs({}, view.userToken);
    expect(res.status).toBe(403);
    expect(res.body.error.type).toBe('permission_error');
  });

  it('answered as documented in the OpenAPI document', () => {
    expect(view.problems).toEqual([]);
  });
});
