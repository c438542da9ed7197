import { describe, expect, it } from 'vitest';
import { requestLogSchema } from './log-columns';
import type { RequestLogRecord } from './record';

const record: RequestLogRecord = {
  id: '6f1c3a7e-5b7e-4f4e-9a51-2c1f0f6b9d10',
  createdAt: new Date(Date.UTC(2025, 0, 31, 12, 0, 1, 234)),
  userId: '0b9f0d4e-55a4-4d0e-8f59-7a0c9d6b1c2a',
  apiKeyId: null,
  endpoint: '/v1/messages',
  model: 'claude-x',
  provider: 'anthropic-main',
  providerType: 'anthropic',
  upstreamModel: 'claude-x-2025',
  routeId: null,
  stream: true,
  statusCode: 200,
  errorType: null,
  errorMessage: null,
  promptTokens: 2 ** 40 + 1,
  completionTokens: 12,
  cachedTokens: 0,
  cacheWriteTokens: 2 ** 33,
  cacheWriteHourTokens: 5,
  reasoningTokens: 9,
  totalTokens: 2 ** 40 + 13,
  weightedTokens: 2 ** 40 + 25,
  costUsd: null,
  unpriced: true,
  latencyMs: 1534,
  upstreamLatencyMs: 212,
  cacheHit: false,
  attempts: 2,
  clientAborted: true,
  usageEstimated: false,
  uncounted: false,
  guardrail: null,
  reasoningEffort: 'high',
  clientName: 'claude-code',
  clientVersion: '2.1.3',
  userAgent: "claude-cli/2.1.3 (external, cli) it's",
  sessionId: null,
};

describe('ClickHouse request log rows', () => {
  it('maps a record to what 18.16 accepts: unix seconds plus exact ms, UInt8 flags', () => {
    const row = requestLogSchema.toRow(record);
    expect(row).toMatchObject({
      id: record.id,
      created_at: Math.floor(record.createdAt.getTime() / 1000),
      created_at_ms: record.createdAt.getTime(),
      api_key_id: null,
      stream: 1,
      unpriced: 1,
      cache_hit: 0,
      client_aborted: 1,
      cost_usd: null,
      prompt_tokens: 2 ** 40 + 1,
    });
  });

  it('maps a selected row (64-bit integers as strings) back to the same record', () => {
    const row = requestLogSchema.toRow(record);
    const selected = {
      ...row,
      created_at_ms: String(row.created_at_ms),
      prompt_tokens: String(row.prompt_tokens),
      completion_tokens: String(row.completion_tokens),
      cached_tokens: String(row.cached_tokens),
      cache_write_tokens: String(row.cache_write_tokens),
      cache_write_hour_tokens: String(row.cache_write_hour_tokens),
      reasoning_tokens: String(row.reasoning_tokens),
      total_tokens: String(row.total_tokens),
      weighted_tokens: String(row.weighted_tokens),
    };
    expect(requestLogSchema.fromRow(selected)).toEqual(record);
  });

  it('refuses instants DateTime cannot hold', () => {
    expect(() => requestLogSchema.toRow({ ...record, createdAt: new Date(-1) })).toThrow(RangeError);
    expect(() => requestLogSchema.toRow({ ...record, createdAt: new Date(Number.NaN) })).toThrow(RangeError);
    expect(() => requestLogSchema.toRow({ ...record, createdAt: new Date(Date.UTC(2106, 0, 1)) })).toThrow(
      RangeError,
    );
  });

  it('creates a partitioned MergeTree under a quoted database name', () => {
    const ddl = requestLogSchema.ddl('sluice').sql;
    expect(ddl).toContain('CREATE TABLE IF NOT EXISTS `sluice`.`request_logs`');
    expect(ddl).toContain(
      'ENGINE = MergeTree() PARTITION BY toYYYYMMDD(created_at) ORDER BY (created_at, id)',
    );
    expect(() => requestLogSchema.ddl('x`; DROP TABLE y')).toThrow(TypeError);
  });
});
