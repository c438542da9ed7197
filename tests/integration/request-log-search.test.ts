// The gateway request-log view: RequestLogStore.search (GET /api/gateway/logs reads it)
// through both adapters and the real drivers: Postgres `request_logs` via the dev sidecar (Neon
// HTTP and Neon Pool) and ClickHouse 18.16 via @clickhouse/client-web. One contract suite; the
// expected answers come from a plain in-memory model of the search, so every adapter must agree.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestLogRecord, RequestLogStore } from '../../shared/src/logs/requests/index';
import type { RequestLogSearch } from '../../shared/src/logs/requests/port';
import {
  ADAPTER_NAMES,
  type AdapterName,
  type AnalyticsAdapters,
  startAnalyticsAdapters,
} from '../helpers/analytics-adapters';
import { requestLogRecord } from '../helpers/request-log-record';

const CH_DATABASE = 'sluice_it_request_log_search';
const U1 = '81000000-0000-4000-8000-000000000001';
const U2 = '82000000-0000-4000-8000-000000000002';
const K1 = '91000000-0000-4000-8000-000000000001';
const K2 = '92000000-0000-4000-8000-000000000002';
const T0 = Date.UTC(2025, 7, 1, 8, 0, 0, 500);

let n = 0;
function request(overrides: Partial<RequestLogRecord> = {}): RequestLogRecord {
  n += 1;
  return requestLogRecord({
    id: `b${String(n).padStart(7, '0')}-0000-4000-8000-000000000000`,
    createdAt: new Date(T0 + n * 1000),
    userId: U1,
    apiKeyId: K1,
    model: 'gpt-test',
    provider: 'openai-main',
    providerType: 'openai',
    upstreamModel: 'gpt-test-2025',
    promptTokens: 100,
    completionTokens: 50,
    totalTokens: 150,
    weightedTokens: 150,
    costUsd: n / 1000,
    latencyMs: 100 + n,
    upstreamLatencyMs: 50,
    ...overrides,
  });
}

const unpriced = { costUsd: null, unpriced: true } as const;

/** Every shape the search must handle, ties included (same instant, cost, latency, second). */
function fixtures(): RequestLogRecord[] {
  n = 0; // every store gets the same ids (the assertions below name some)
  return [
    request({
      clientName: 'codex',
      clientVersion: '0.171.0',
      userAgent: 'codex_exec/0.171.0 (Linux; x86_64)',
      sessionId: 'a1b2',
      reasoningEffort: 'xhigh',
      cacheWriteTokens: 30,
      cacheWriteHourTokens: 10,
      reasoningTokens: 20,
    }),
    request({
      model: 'claude-test',
      provider: 'anthropic',
      endpoint: '/v1/messages',
      costUsd: 0.5,
      clientName: 'claude-code',
      cachedTokens: 90,
    }),
    request({ model: 'GPT-test', userId: U2, apiKeyId: K2, latencyMs: 900, costUsd: 0.5 }),
    request({
      statusCode: 502,
      errorType: 'upstream_error',
      errorMessage: "'; DROP TABLE x; --",
      clientName: "codex'; --",
      ...unpriced,
    }),
    request({ id: 'f0000000-0000-4000-8000-000000000001', createdAt: new Date(T0), latencyMs: 900 }),
    request({
      id: '00000000-0000-4000-8000-000000000001',
      createdAt: new Date(T0),
      userId: null,
      ...unpriced,
    }),
    // Same second as T0 (ClickHouse DateTime has seconds only), an earlier millisecond.
    request({ createdAt: new Date(T0 - 499), provider: null, providerType: null, apiKeyId: null }),
    request({ statusCode: 499, clientAborted: true, provider: 'anthropic', costUsd: 0 }),
    request({ createdAt: new Date(Date.UTC(2001, 0, 1, 0, 0, 0, 1)), userId: U2, latencyMs: 2 ** 31 - 1 }),
    request({
      createdAt: new Date(Date.UTC(2099, 11, 31, 23, 59, 59, 999)),
      statusCode: 429,
      errorType: 'rate_limit_error',
      clientName: 'codex',
      ...unpriced,
    }),
  ];
}

const byIdDesc = (a: RequestLogRecord, b: RequestLogRecord) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
const ms = (d: Date) => d.getTime();

function matches(r: RequestLogRecord, f: RequestLogSearch): boolean {
  return (
    (f.model === undefined || r.model === f.model) &&
    (f.provider === undefined || r.provider === f.provider) &&
    (f.userId === undefined || r.userId === f.userId.toLowerCase()) &&
    (f.apiKeyId === undefined || r.apiKeyId === f.apiKeyId.toLowerCase()) &&
    (f.statusCode === undefined || r.statusCode === f.statusCode) &&
    (f.clientName === undefined || r.clientName === f.clientName) &&
    (f.errorType === undefined || r.errorType === f.errorType) &&
    (f.from === undefined || ms(r.createdAt) >= ms(f.from)) &&
    (f.to === undefined || ms(r.createdAt) <= ms(f.to))
  );
}

/** Descending by the sort key (NULL costs below every number), then by id descending. */
function compare(sortBy: RequestLogSearch['sortBy']) {
  const key = (r: RequestLogRecord) =>
    sortBy === 'cost_usd'
      ? (r.costUsd ?? -Infinity)
      : sortBy === 'latency_ms'
        ? r.latencyMs
        : ms(r.createdAt);
  return (a: RequestLogRecord, b: RequestLogRecord) => {
    const [ka, kb] = [key(a), key(b)];
    return ka === kb ? byIdDesc(a, b) : kb > ka ? 1 : -1;
  };
}

/** What search() must answer, computed in memory from the records stored so far. */
function model(all: readonly RequestLogRecord[], f: RequestLogSearch) {
  const matching = all.filter((r) => matches(r, f)).sort(compare(f.sortBy));
  const offset = f.offset ?? 0;
  return { total: matching.length, entries: matching.slice(offset, offset + (f.limit ?? 50)) };
}

let adapters: AnalyticsAdapters;
const stores = {} as Record<AdapterName, RequestLogStore>;

beforeAll(async () => {
  adapters = await startAnalyticsAdapters({
    pgName: 'sluice_it_request_log_search',
    chDatabase: CH_DATABASE,
  });
  for (const name of ADAPTER_NAMES) stores[name] = adapters.stores[name].requests;
});
afterAll(() => adapters?.close());

describe.each(['neon-http', 'pg-pool', 'clickhouse'] as const)('request log search (%s)', (name) => {
  const stored: RequestLogRecord[] = [];
  const store = () => stores[name];
  const expectSearch = async (filter: RequestLogSearch) =>
    expect(await store().search(filter), JSON.stringify(filter)).toEqual(model(stored, filter));
  const ids = async (filter: RequestLogSearch) =>
    (await store().search(filter)).entries.map((r) => r.id.slice(0, 8));

  it('is empty before the first insert (table created on first use)', async () => {
    expect(await store().search({})).toEqual({ total: 0, entries: [] });
  });

  it('round-trips every field, newest first with ties by id descending', async () => {
    const records = fixtures();
    await store().insert(records);
    stored.push(...records);
    // toEqual compares Dates to the millisecond, so the exact instants are checked too.
    const found = await store().search({});
    expect(found).toEqual({ ...model(stored, {}), total: 10 });
    expect(found.entries.slice(-4).map((r) => r.id.slice(0, 8))).toEqual([
      'f0000000',
      '00000000',
      'b0000007',
      'b0000009',
    ]);
  });

  it('filters by exact model and provider, user, API key and status code, alone and combined', async () => {
    const filters: RequestLogSearch[] = [
      ...[{ model: 'gpt-test' }, { model: 'GPT-test' }, { model: 'gpt' }, { provider: 'anthropic' }],
      ...[{ provider: 'openai' }, { userId: U1 }, { userId: U2 }, { apiKeyId: K2 }, { apiKeyId: K1 }],
      ...[{ statusCode: 200 }, { statusCode: 502 }, { statusCode: 404 }],
      { model: 'gpt-test', provider: 'openai-main', userId: U1, apiKeyId: K1, statusCode: 200 },
    ];
    for (const filter of filters) await expectSearch(filter);
    expect((await store().search({ model: 'gpt-test' })).total).toBe(8);
    expect(await ids({ provider: 'anthropic' })).toEqual(['b0000008', 'b0000002']);
    expect(await ids({ statusCode: 499 })).toEqual(['b0000008']);
  });

  it('filters by exact client name and error type, alone and combined', async () => {
    const filters: RequestLogSearch[] = [
      ...[{ clientName: 'codex' }, { clientName: 'Codex' }, { clientName: 'claude-code' }],
      ...[{ clientName: "codex'; --" }, { errorType: 'upstream_error' }, { errorType: 'rate_limit' }],
      { clientName: 'codex', errorType: 'rate_limit_error', statusCode: 429 },
    ];
    for (const filter of filters) await expectSearch(filter);
    expect(await ids({ clientName: 'codex' })).toEqual(['b0000010', 'b0000001']);
    expect(await ids({ errorType: 'rate_limit_error' })).toEqual(['b0000010']);
    expect(await ids({ clientName: "codex'; --", errorType: 'upstream_error' })).toEqual(['b0000004']);
  });

  it('matches uuid filters case-insensitively, like Postgres uuid', async () => {
    await expectSearch({ userId: U2.toUpperCase() });
    expect((await store().search({ apiKeyId: K2.toUpperCase() })).total).toBe(1);
  });

  it('filters by an inclusive created_at range to the millisecond', async () => {
    const filters: RequestLogSearch[] = [
      ...[{ from: new Date(T0) }, { from: new Date(T0 + 1) }, { to: new Date(T0) }, { to: new Date(T0 - 1) }],
      { from: new Date(T0 - 499), to: new Date(T0 - 499) },
      { from: new Date(T0), to: new Date(T0 + 3000), model: 'gpt-test' },
      ...[{ from: new Date(Date.UTC(2200, 0, 1)) }, { to: new Date(-1) }, { from: new Date(-5e12) }],
    ];
    for (const filter of filters) await expectSearch(filter);
    expect((await store().search({ from: new Date(T0 - 499), to: new Date(T0 - 499) })).total).toBe(1);
  });

  it('sorts by cost_usd descending, ties by id, unpriced (NULL) rows last', async () => {
    await expectSearch({ sortBy: 'cost_usd' });
    const all = (await store().search({ sortBy: 'cost_usd' })).entries;
    expect(all.slice(0, 2).map((r) => r.id.slice(0, 8))).toEqual(['b0000003', 'b0000002']);
    expect(all.slice(-3).map((r) => r.costUsd)).toEqual([null, null, null]);
    expect(all.slice(-3).map((r) => r.id.slice(0, 8))).toEqual(['b0000010', 'b0000004', '00000000']);
    expect(all.at(-4)?.costUsd).toBe(0);
    await expectSearch({ sortBy: 'cost_usd', model: 'gpt-test', limit: 3, offset: 4 });
  });

  it('sorts by latency_ms descending, ties by id', async () => {
    await expectSearch({ sortBy: 'latency_ms' });
    const top = (await store().search({ sortBy: 'latency_ms', limit: 3 })).entries;
    expect(top.map((r) => r.latencyMs)).toEqual([2 ** 31 - 1, 900, 900]);
    expect(top.slice(1).map((r) => r.id.slice(0, 8))).toEqual(['f0000000', 'b0000003']);
  });

  it('pages stably in every sort, with the total of all matching rows on every page', async () => {
    for (const sortBy of ['created_at', 'cost_usd', 'latency_ms'] as const) {
      const paged: RequestLogRecord[] = [];
      for (let offset = 0; offset < stored.length; offset += 3) {
        const page = await store().search({ sortBy, limit: 3, offset });
        expect(page.total).toBe(stored.length);
        paged.push(...page.entries);
      }
      expect(paged).toEqual(model(stored, { sortBy, limit: 200 }).entries);
    }
    expect(await store().search({ offset: stored.length })).toEqual({ total: stored.length, entries: [] });
  });

  it('returns 50 rows by default and at most 200', async () => {
    const many = Array.from({ length: 205 }, () => request({ model: 'bulk', createdAt: new Date(T0 + 7e9) }));
    await store().insert(many);
    stored.push(...many);
    expect((await store().search({ model: 'bulk' })).entries).toHaveLength(50);
    const max = await store().search({ model: 'bulk', limit: 200 });
    expect([max.total, max.entries.length]).toEqual([205, 200]);
    await expectSearch({ model: 'bulk', limit: 200, offset: 200 });
    await expectSearch({ sortBy: 'cost_usd', limit: 200, offset: 20 });
  });

  it('refuses bad paging and filter values with a RangeError, before any query', async () => {
    for (const filter of [
      { limit: 201 },
      { limit: 0 },
      { limit: 1.5 },
      { offset: -1 },
      { offset: Number.NaN },
      { sortBy: 'model' as never },
      { statusCode: 99 },
      { statusCode: 600 },
      { statusCode: 200.5 },
      { userId: 'not-a-uuid' },
      { apiKeyId: '123' },
      { model: 42 as never },
      { from: new Date(Number.NaN) },
      { from: new Date(T0 + 1), to: new Date(T0) },
    ]) {
      await expect(store().search(filter), JSON.stringify(filter)).rejects.toThrow(RangeError);
    }
  });
});
