// The request log lives in ClickHouse, or in Postgres without CLICKHOUSE_URL; the gateway writes
// its row after the response (docs/architecture.md, The hot path). Both adapters of the
// RequestLogStore port through the real drivers: Neon HTTP and Neon Pool via the dev sidecar,
// @clickhouse/client-web against the real 18.16 server.
import type { ClickHouseClient } from '@clickhouse/client-web';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPostgresPool, type PostgresPool } from '../../console-server/src/stores/postgres';
import { type ChSql, chIdent, chSql } from '../../shared/src/logs/analytics/clickhouse-sql';
import { createAnalyticsStore } from '../../shared/src/logs/analytics/store';
import {
  createBatchingLedgerWriter,
  createClickHouseRequestLogStore,
  type RequestLogRecord,
  type RequestLogStore,
} from '../../shared/src/logs/requests';
import {
  CLICKHOUSE_ROW_FORMAT,
  createClickHouse,
  ensureClickHouseDatabase,
} from '../../shared/src/stores/clickhouse';
import { configureNeon, createHttpDb } from '../../shared/src/stores/neon';
import { CLICKHOUSE_URL } from '../helpers/env';
import { requestLogRecord } from '../helpers/request-log-record';
import { freshDatabase } from '../helpers/stores';

const CH_DATABASE = 'sluice_it_ledger';
const CH_DATABASE_B = 'sluice_it_ledger_b';
const CH_DATABASE_C = 'sluice_it_ledger_c';

const KEY_A = '11111111-1111-4111-8111-111111111111';
const KEY_B = '22222222-2222-4222-8222-222222222222';
const USER = '33333333-3333-4333-8333-333333333333';
const ROUTE = '44444444-4444-4444-8444-444444444444';
const WRITER_KEY = '66666666-6666-4666-8666-666666666666';

function record(
  overrides: Partial<RequestLogRecord> & Pick<RequestLogRecord, 'id' | 'createdAt'>,
): RequestLogRecord {
  return requestLogRecord({
    userId: USER,
    apiKeyId: KEY_A,
    model: 'gpt-test',
    provider: 'openai-main',
    providerType: 'openai',
    upstreamModel: 'gpt-test-2025-01-01',
    routeId: ROUTE,
    promptTokens: 1000,
    completionTokens: 500,
    totalTokens: 1500,
    weightedTokens: 1500,
    costUsd: 0.0105,
    latencyMs: 840,
    upstreamLatencyMs: 310,
    ...overrides,
  });
}

const T0 = Date.UTC(2025, 5, 30, 23, 59, 59, 123);

/** Every shape the ledger must keep exactly, in insertion order (not the list order). */
function fixtures(): RequestLogRecord[] {
  return [
    record({ id: 'a0000000-0000-4000-8000-000000000001', createdAt: new Date(T0) }),
    // Unpriced: cost null, never 0. No route answered: provider fields null, no user.
    record({
      id: 'b0000000-0000-4000-8000-000000000002',
      createdAt: new Date(T0 + 1),
      userId: null,
      endpoint: '/v1/messages',
      model: 'unpriced-model',
      provider: null,
      providerType: null,
      upstreamModel: null,
      routeId: null,
      stream: true,
      statusCode: 502,
      errorType: 'upstream_error',
      errorMessage: `it's "broken"\n\\ tab\t 中文 😀 '; DROP TABLE request_logs; --`,
      promptTokens: 0,
      completionTokens: 0,
      totalTokens: 0,
      weightedTokens: 0,
      costUsd: null,
      unpriced: true,
      upstreamLatencyMs: null,
      attempts: 3,
      clientAborted: true,
    }),
    // Token counts beyond 32 bits (and one at the largest exact double).
    record({
      id: 'c0000000-0000-4000-8000-000000000003',
      createdAt: new Date(T0 + 2),
      endpoint: '/v1/responses',
      stream: true,
      promptTokens: 2 ** 31 + 5,
      completionTokens: 2 ** 33 + 1,
      cachedTokens: 2 ** 31,
      totalTokens: 2 ** 31 + 5 + 2 ** 33 + 1,
      weightedTokens: Number.MAX_SAFE_INTEGER,
      costUsd: 12345.678901234,
      cacheHit: true,
    }),
    // Same instant as the first: ordered by id descending.
    record({ id: 'f0000000-0000-4000-8000-000000000004', createdAt: new Date(T0), costUsd: 3e-7 }),
    record({ id: '00000000-0000-4000-8000-000000000005', createdAt: new Date(T0), costUsd: 0 }),
    // Same second as T0 (DateTime in ClickHouse only has seconds) but an earlier millisecond.
    record({
      id: 'd0000000-0000-4000-8000-000000000006',
      createdAt: new Date(T0 - 123),
      apiKeyId: KEY_B,
      costUsd: 0.000123457,
      latencyMs: 0,
      upstreamLatencyMs: 0,
    }),
    // Other months and years (other ClickHouse partitions); full-precision cost.
    record({
      id: 'e0000000-0000-4000-8000-000000000007',
      createdAt: new Date(Date.UTC(2001, 0, 1, 0, 0, 0, 1)),
      apiKeyId: null,
      userId: null,
      costUsd: 0.1 + 0.2,
    }),
    record({
      id: '90000000-0000-4000-8000-000000000008',
      createdAt: new Date(Date.UTC(2099, 11, 31, 23, 59, 59, 999)),
      apiKeyId: KEY_B,
      costUsd: 1e-9,
    }),
  ];
}

/** The order list() must return: created_at descending, then id descending. */
function newestFirst(records: readonly RequestLogRecord[]): RequestLogRecord[] {
  return [...records].sort(
    (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
  );
}

let ch: ClickHouseClient;
let pooled: PostgresPool | undefined;
type StoreName = 'neon-http' | 'pg-pool' | 'clickhouse';
const stores = {} as Record<StoreName, RequestLogStore>;
/** What each store's writer test wrote (random ids, so each store's row is its own). */
const written = {} as Record<StoreName, RequestLogRecord>;

async function chSelect<T>(query: ChSql): Promise<T[]> {
  return (await ch.query({ query: query.sql, format: CLICKHOUSE_ROW_FORMAT })).json<T>();
}

async function chTableExists(database: string): Promise<boolean> {
  const [row] = await chSelect<{ n: string }>(
    chSql`SELECT count() AS n FROM system.tables WHERE database = ${database} AND name = 'request_logs'`,
  );
  return Number(row?.n) === 1;
}

beforeAll(async () => {
  const sidecar = inject('sidecarEnv');
  configureNeon({ httpEndpoint: sidecar.NEON_LOCAL_HTTP });
  const [httpUrl, poolUrl] = await Promise.all([
    freshDatabase('sluice_it_ledger_http'),
    freshDatabase('sluice_it_ledger_pool'),
  ]);
  pooled = createPostgresPool(poolUrl, 2);

  ch = createClickHouse({ url: CLICKHOUSE_URL, database: 'default', requestTimeoutMs: 10_000 });
  for (const database of [CH_DATABASE, CH_DATABASE_B, CH_DATABASE_C]) {
    await ch.command({ query: chSql`DROP DATABASE IF EXISTS ${chIdent(database)}`.sql });
  }
  await ensureClickHouseDatabase({ url: CLICKHOUSE_URL, database: CH_DATABASE });

  stores['neon-http'] = createAnalyticsStore({ db: createHttpDb(httpUrl) }).requests;
  stores['pg-pool'] = createAnalyticsStore({ db: pooled.db }).requests;
  stores.clickhouse = createAnalyticsStore({
    db: createHttpDb(httpUrl),
    clickhouse: { client: ch, database: CH_DATABASE },
  }).requests;
});

afterAll(async () => {
  await pooled?.pool.end();
  await ch?.close();
});

describe.each(['neon-http', 'pg-pool', 'clickhouse'] as const)('request log store (%s)', (name) => {
  const records = fixtures();
  const expected = newestFirst(records);

  it('is empty before the first insert, and an empty batch is a no-op', async () => {
    const store = stores[name];
    await store.insert([]);
    expect(await store.list()).toEqual([]);
  });

  it('round-trips every field exactly (ms instants, >2^31 tokens, null cost, nulls, flags)', async () => {
    const store = stores[name];
    await store.insert(records.slice(0, 3));
    await store.insert(records.slice(3));
    const listed = await store.list({ limit: 100 });
    expect(listed).toEqual(expected);
    // toEqual treats Date by value; make the millisecond check and the null cost explicit too.
    expect(listed.map((r) => r.createdAt.toISOString())).toEqual(
      expected.map((r) => r.createdAt.toISOString()),
    );
    const unpriced = listed.find((r) => r.unpriced);
    expect(unpriced?.costUsd).toBeNull();
    expect(listed.find((r) => r.id.startsWith('c'))?.weightedTokens).toBe(Number.MAX_SAFE_INTEGER);
    expect(listed.find((r) => r.id.startsWith('e'))?.costUsd).toBe(0.30000000000000004);
  });

  it('orders newest first with the id as tiebreak, and pages stably', async () => {
    const store = stores[name];
    const ids = expected.map((r) => r.id);
    expect(ids.slice(0, 4)).toEqual([
      '90000000-0000-4000-8000-000000000008',
      'c0000000-0000-4000-8000-000000000003',
      'b0000000-0000-4000-8000-000000000002',
      'f0000000-0000-4000-8000-000000000004',
    ]);
    expect((await store.list()).map((r) => r.id)).toEqual(ids);
    const paged: string[] = [];
    for (let offset = 0; offset < ids.length; offset += 3) {
      paged.push(...(await store.list({ limit: 3, offset })).map((r) => r.id));
    }
    expect(paged).toEqual(ids);
    expect(await store.list({ limit: 0 })).toEqual([]);
    expect(await store.list({ offset: ids.length })).toEqual([]);
    await expect(store.list({ limit: -1 })).rejects.toThrow(RangeError);
  });

  it('filters by API key', async () => {
    const store = stores[name];
    const keyB = await store.list({ apiKeyId: KEY_B });
    expect(keyB).toEqual(expected.filter((r) => r.apiKeyId === KEY_B));
    expect(keyB).toHaveLength(2);
    expect(await store.list({ apiKeyId: KEY_A, limit: 2, offset: 1 })).toEqual(
      expected.filter((r) => r.apiKeyId === KEY_A).slice(1, 3),
    );
    expect(await store.list({ apiKeyId: '55555555-5555-4555-8555-555555555555' })).toEqual([]);
  });

  it("sums one key's or one user's cost, cache and reasoning tokens since an instant, unpriced rows adding no cost", async () => {
    const store = stores[name];
    const key = crypto.randomUUID();
    const user = crypto.randomUUID();
    const at = (minutes: number) => new Date(Date.UTC(2099, 5, 1, 0, minutes));
    const tokens = (read: number, write: number, reasoning: number) => ({
      cachedTokens: read,
      cacheWriteTokens: write,
      cacheWriteHourTokens: write > 0 ? 1 : 0,
      reasoningTokens: reasoning,
    });
    await store.insert([
      record({ id: crypto.randomUUID(), createdAt: at(0), apiKeyId: key, userId: user, costUsd: 0.25 }),
      record({
        id: crypto.randomUUID(),
        createdAt: at(10),
        apiKeyId: key,
        userId: user,
        costUsd: 0.5,
        ...tokens(2 ** 33, 40, 7),
      }),
      record({
        id: crypto.randomUUID(),
        createdAt: at(20),
        apiKeyId: key,
        userId: user,
        costUsd: null,
        unpriced: true,
        ...tokens(100, 0, 3),
      }),
      record({
        id: crypto.randomUUID(),
        createdAt: at(30),
        apiKeyId: null,
        userId: user,
        costUsd: 1,
        ...tokens(1, 2, 5),
      }),
    ]);
    const usage = (
      costUsd: number,
      cacheReadTokens: number,
      cacheWriteTokens: number,
      reasoningTokens: number,
    ) => ({
      costUsd: expect.closeTo(costUsd, 12),
      cacheReadTokens,
      cacheWriteTokens,
      reasoningTokens,
    });
    expect(await store.usageSince({ apiKeyId: key, since: at(0) })).toEqual(
      usage(0.75, 2 ** 33 + 100, 40, 10),
    );
    expect(await store.usageSince({ apiKeyId: key, since: at(15) })).toEqual(usage(0, 100, 0, 3));
    expect(await store.usageSince({ userId: user, since: at(0) })).toEqual(
      usage(1.75, 2 ** 33 + 101, 42, 15),
    );
    expect(await store.usageSince({ apiKeyId: crypto.randomUUID(), since: at(0) })).toEqual({
      costUsd: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    });
  });

  it('writes through the ledger writer', async () => {
    const store = stores[name];
    const errors: unknown[] = [];
    const writer = createBatchingLedgerWriter(store, {
      maxDelayMs: 5,
      onError: (error) => errors.push(error),
    });
    const extra = record({
      id: crypto.randomUUID(),
      createdAt: new Date(Date.UTC(2100, 0, 1)),
      apiKeyId: WRITER_KEY,
    });
    written[name] = extra;
    await writer.write(extra);
    expect(errors).toEqual([]);
    expect(await store.list({ apiKeyId: WRITER_KEY })).toEqual([extra]);
    expect((await store.list({ limit: 1 }))[0]).toEqual(extra);
  });
});

describe('ClickHouse request log table', () => {
  it('lives in the configured database only: stores for two databases do not interfere', async () => {
    await ensureClickHouseDatabase({ url: CLICKHOUSE_URL, database: CH_DATABASE_B });
    expect(await chTableExists(CH_DATABASE_B)).toBe(false);
    // The same client serves both: every statement names its database.
    const storeB = createClickHouseRequestLogStore(ch, { database: CH_DATABASE_B });
    const mine = record({ id: crypto.randomUUID(), createdAt: new Date(T0 + 60_000), model: 'only-in-b' });
    await storeB.insert([mine]);
    expect(await chTableExists(CH_DATABASE_B)).toBe(true);

    expect(await storeB.list()).toEqual([mine]);
    const inA = await stores.clickhouse.list({ limit: 1000 });
    expect(inA.length).toBeGreaterThan(1);
    expect(inA.some((r) => r.id === mine.id)).toBe(false);
    const [row] = await chSelect<{ n: string }>(
      chSql`SELECT count() AS n FROM ${chIdent(CH_DATABASE, 'request_logs')} WHERE model = 'only-in-b'`,
    );
    expect(row?.n).toBe('0');
  });

  it('is what createAnalyticsStore picks when ClickHouse is given: nothing goes to Postgres', async () => {
    // stores.clickhouse was built with the neon-http database as well.
    expect(await stores.clickhouse.list({ apiKeyId: WRITER_KEY })).toEqual([written.clickhouse]);
    expect(await stores['neon-http'].list({ apiKeyId: WRITER_KEY })).toEqual([written['neon-http']]);
  });

  it('creates database and table on first insert, once, and retries after a failed attempt', async () => {
    let calls = 0;
    const ensureDatabase = async () => {
      calls += 1;
      if (calls === 1) throw new Error('ClickHouse unavailable');
      await ensureClickHouseDatabase({ url: CLICKHOUSE_URL, database: CH_DATABASE_C });
    };
    // The ClickHouse store itself: the analytics store would send a failed insert to its spill.
    const store = createClickHouseRequestLogStore(ch, { database: CH_DATABASE_C, ensureDatabase });
    const first = record({ id: crypto.randomUUID(), createdAt: new Date(T0) });
    await expect(store.insert([first])).rejects.toThrow('ClickHouse unavailable');
    expect(await chTableExists(CH_DATABASE_C)).toBe(false);

    await store.insert([first]);
    expect(await chTableExists(CH_DATABASE_C)).toBe(true);
    const second = record({ id: crypto.randomUUID(), createdAt: new Date(T0 + 1000) });
    await Promise.all([store.insert([second]), store.list()]);
    expect(calls).toBe(2);
    expect(await store.list()).toEqual([second, first]);
  });

  it('stores flags as UInt8, 64-bit counts as Int64 and the exact instant beside DateTime', async () => {
    const [row] = await chSelect<Record<string, unknown>>(
      chSql`SELECT toUnixTimestamp(created_at) AS s, created_at_ms, stream, unpriced, prompt_tokens, cost_usd
        FROM ${chIdent(CH_DATABASE, 'request_logs')} WHERE id = 'c0000000-0000-4000-8000-000000000003'`,
    );
    expect(row).toEqual({
      s: Math.floor((T0 + 2) / 1000),
      created_at_ms: String(T0 + 2),
      stream: 1,
      unpriced: 0,
      prompt_tokens: String(2 ** 31 + 5),
      cost_usd: 12345.678901234,
    });
  });
});
