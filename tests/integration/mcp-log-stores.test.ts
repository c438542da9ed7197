// The MCP call log: the McpLogStore port (GET /api/mcp/logs reads it) through both adapters
// and the real drivers: Postgres `mcp_logs` via the dev sidecar (Neon HTTP and Neon Pool) and
// ClickHouse 18.16 via @clickhouse/client-web. One contract suite; the expected answers come
// from a plain in-memory model of the filter, so every adapter must agree with it exactly.
import type { ClickHouseClient } from '@clickhouse/client-web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chIdent, chSql } from '../../shared/src/logs/analytics/clickhouse-sql';
import { createAnalyticsStore } from '../../shared/src/logs/analytics/store';
import type { McpLogFilter, McpLogRecord, McpLogStore } from '../../shared/src/mcp/ports';
import { ensureClickHouseDatabase } from '../../shared/src/stores/clickhouse';
import {
  ADAPTER_NAMES,
  type AdapterName,
  type AnalyticsAdapters,
  startAnalyticsAdapters,
} from '../helpers/analytics-adapters';
import { CLICKHOUSE_URL } from '../helpers/env';

const CH_DATABASE = 'sluice_it_mcp_logs';
const CH_DATABASE_LAZY = 'sluice_it_mcp_logs_lazy';
const S1 = '51000000-0000-4000-8000-000000000001';
const S2 = '52000000-0000-4000-8000-000000000002';
const U1 = '61000000-0000-4000-8000-000000000001';
const U2 = '62000000-0000-4000-8000-000000000002';
const KEY = '71000000-0000-4000-8000-000000000001';
const T0 = Date.UTC(2025, 6, 1, 12, 0, 0, 500);

let n = 0;
function call(overrides: Partial<McpLogRecord> = {}): McpLogRecord {
  n += 1;
  return {
    id: `a${String(n).padStart(7, '0')}-0000-4000-8000-000000000000`,
    createdAt: new Date(T0 + n * 1000),
    userId: U1,
    apiKeyId: KEY,
    serverId: S1,
    serverName: 'everything',
    toolName: 'echo',
    status: 'success',
    durationMs: 100 + n,
    error: null,
    ...overrides,
  };
}

/** Every shape the log must keep, ties included (same instant, same duration, same second). */
function fixtures(): McpLogRecord[] {
  // Every store gets the same ids (the assertions below name some).
  n = 0;
  return [
    call(),
    call({ toolName: 'echo2', durationMs: 900 }),
    call({ toolName: 'Echo', userId: U2, durationMs: 900 }),
    call({ status: 'error', error: `it's "broken"\n\\ 中文 😀 '; DROP TABLE mcp_logs; --`, durationMs: 0 }),
    call({ id: 'f0000000-0000-4000-8000-000000000001', createdAt: new Date(T0), durationMs: 900 }),
    call({ id: '00000000-0000-4000-8000-000000000001', createdAt: new Date(T0), userId: null }),
    // Same second as T0 (ClickHouse DateTime has seconds only), an earlier millisecond.
    call({ createdAt: new Date(T0 - 499), serverId: S2, serverName: 'guarded', apiKeyId: null }),
    call({ serverId: S2, serverName: 'guarded', toolName: 'add', status: 'error', error: 'boom' }),
    call({ createdAt: new Date(Date.UTC(2001, 0, 1, 0, 0, 0, 1)), userId: U2, durationMs: 2 ** 31 - 1 }),
    call({ createdAt: new Date(Date.UTC(2099, 11, 31, 23, 59, 59, 999)), serverId: S2, toolName: 'add' }),
  ];
}

const byIdDesc = (a: McpLogRecord, b: McpLogRecord) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** What list() must answer, computed in memory from the records stored so far. */
function model(all: readonly McpLogRecord[], f: McpLogFilter) {
  const ms = (d: Date) => d.getTime();
  const matching = all.filter(
    (r) =>
      (f.userId === undefined || r.userId === f.userId) &&
      (f.serverId === undefined || r.serverId === f.serverId) &&
      (f.toolName === undefined || r.toolName === f.toolName) &&
      (f.status === undefined || r.status === f.status) &&
      (f.from === undefined || ms(r.createdAt) >= ms(f.from)) &&
      (f.to === undefined || ms(r.createdAt) <= ms(f.to)),
  );
  const key =
    f.sortBy === 'duration_ms' ? (r: McpLogRecord) => r.durationMs : (r: McpLogRecord) => ms(r.createdAt);
  matching.sort((a, b) => key(b) - key(a) || byIdDesc(a, b));
  const offset = f.offset ?? 0;
  return { total: matching.length, entries: matching.slice(offset, offset + (f.limit ?? 50)) };
}

let ch: ClickHouseClient;
let adapters: AnalyticsAdapters;
const stores = {} as Record<AdapterName, McpLogStore>;

beforeAll(async () => {
  adapters = await startAnalyticsAdapters({ pgName: 'sluice_it_mcp_logs', chDatabase: CH_DATABASE });
  ch = adapters.ch;
  await ch.command({ query: chSql`DROP DATABASE IF EXISTS ${chIdent(CH_DATABASE_LAZY)}`.sql });
  for (const name of ADAPTER_NAMES) stores[name] = adapters.stores[name].mcpCalls;
});
afterAll(() => adapters?.close());

describe.each(['neon-http', 'pg-pool', 'clickhouse'] as const)('MCP log store (%s)', (name) => {
  const stored: McpLogRecord[] = [];
  const store = () => stores[name];
  const expectList = async (filter: McpLogFilter) =>
    expect(await store().list(filter), JSON.stringify(filter)).toEqual(model(stored, filter));

  it('is empty before the first insert (table created on first use); an empty batch is a no-op', async () => {
    await store().insert([]);
    expect(await store().list({})).toEqual({ total: 0, entries: [] });
  });

  it('round-trips every field, newest first with ties by id descending', async () => {
    const records = fixtures();
    await store().insert(records.slice(0, 4));
    await store().insert(records.slice(4));
    stored.push(...records);
    // toEqual compares Dates to the millisecond, so the exact instants are checked too.
    const listed = await store().list({});
    expect(listed).toEqual({ ...model(stored, {}), total: 10 });
    // The three rows at T0 (and the one 499 ms before it, in the same second) in order.
    expect(listed.entries.slice(-4).map((r) => r.id.slice(0, 8))).toEqual([
      'f0000000',
      '00000000',
      'a0000007',
      'a0000009',
    ]);
  });

  it('filters by user, server, exact tool name and status, alone and combined', async () => {
    const filters: McpLogFilter[] = [
      ...[{ userId: U1 }, { userId: U2 }, { userId: '99999999-0000-4000-8000-000000000000' }],
      ...[{ serverId: S2 }, { toolName: 'echo' }, { toolName: 'Echo' }, { toolName: 'ech' }],
      ...([{ status: 'error' }, { status: 'success', serverId: S1, userId: U1, toolName: 'echo' }] as const),
    ];
    for (const filter of filters) await expectList(filter);
    expect((await store().list({ toolName: 'echo' })).total).toBe(6);
  });

  it('filters by an inclusive created_at range to the millisecond', async () => {
    const filters: McpLogFilter[] = [
      ...[{ from: new Date(T0) }, { from: new Date(T0 + 1) }, { to: new Date(T0) }, { to: new Date(T0 - 1) }],
      { from: new Date(T0 - 499), to: new Date(T0 - 499) },
      { from: new Date(T0), to: new Date(T0 + 3000), serverId: S1 },
      ...[{ from: new Date(Date.UTC(2200, 0, 1)) }, { to: new Date(-1) }],
    ];
    for (const filter of filters) await expectList(filter);
    expect((await store().list({ from: new Date(T0 - 499), to: new Date(T0 - 499) })).total).toBe(1);
  });

  it('sorts by duration_ms descending with ties by id descending', async () => {
    await expectList({ sortBy: 'duration_ms' });
    await expectList({ sortBy: 'duration_ms', status: 'success', limit: 3, offset: 1 });
    const top = (await store().list({ sortBy: 'duration_ms', limit: 4 })).entries;
    expect(top.map((r) => r.durationMs)).toEqual([2 ** 31 - 1, 900, 900, 900]);
    expect(top.slice(1).map((r) => r.id.slice(0, 8))).toEqual(['f0000000', 'a0000003', 'a0000002']);
  });

  it('pages stably, with the total of all matching rows on every page', async () => {
    for (const sortBy of ['created_at', 'duration_ms'] as const) {
      const paged: McpLogRecord[] = [];
      for (let offset = 0; offset < stored.length; offset += 3) {
        const page = await store().list({ sortBy, limit: 3, offset });
        expect(page.total).toBe(stored.length);
        paged.push(...page.entries);
      }
      expect(paged).toEqual(model(stored, { sortBy, limit: 200 }).entries);
    }
    expect(await store().list({ offset: stored.length })).toEqual({ total: stored.length, entries: [] });
    await expectList({ serverId: S1, limit: 2, offset: 2 });
  });

  it('returns 50 rows by default and at most 200', async () => {
    const server = '53000000-0000-4000-8000-000000000003';
    const many = Array.from({ length: 205 }, () => call({ serverId: server, createdAt: new Date(T0 + 7e9) }));
    await store().insert(many);
    stored.push(...many);
    await expectList({ serverId: server });
    expect((await store().list({ serverId: server })).entries).toHaveLength(50);
    const max = await store().list({ serverId: server, limit: 200 });
    expect([max.total, max.entries.length]).toEqual([205, 200]);
    await expectList({ serverId: server, limit: 200, offset: 200 });
  });

  it('refuses bad paging and filter values with a RangeError, before any query', async () => {
    for (const filter of [
      { limit: 201 },
      { limit: 0 },
      { limit: 1.5 },
      { offset: -1 },
      { offset: Number.NaN },
      { sortBy: 'name' as never },
      { status: 'ok' as never },
      { userId: 'not-a-uuid' },
      { from: new Date(Number.NaN) },
    ]) {
      await expect(store().list(filter), JSON.stringify(filter)).rejects.toThrow(RangeError);
    }
  });

  it('refuses a record it could not store faithfully, and stores nothing of that batch', async () => {
    const server = '54000000-0000-4000-8000-000000000004';
    await expect(
      store().insert([call({ serverId: server }), call({ serverId: server, durationMs: -1 })]),
    ).rejects.toThrow(RangeError);
    await expect(store().insert([call({ serverId: 'nope' })])).rejects.toThrow(RangeError);
    expect(await store().list({ serverId: server })).toEqual({ total: 0, entries: [] });
  });

  it('answers uuids lowercased and matches filters case-insensitively, like Postgres uuid', async () => {
    const server = '5500000a-0000-4000-8000-0000000000ab';
    const record = call({ id: 'ABCDEF00-0000-4000-8000-00000000000A', serverId: server.toUpperCase() });
    await store().insert([record]);
    const lower = { ...record, id: record.id.toLowerCase(), serverId: server };
    stored.push(lower);
    expect(await store().list({ serverId: server.toUpperCase() })).toEqual({ total: 1, entries: [lower] });
    expect(await store().list({ serverId: server })).toEqual({ total: 1, entries: [lower] });
    await expectList({ sortBy: 'duration_ms', limit: 200 });
  });
});

describe('ClickHouse MCP log table', () => {
  it('creates database and table on first use, once, and retries after a failed attempt', async () => {
    let calls = 0;
    const ensureDatabase = async () => {
      calls += 1;
      if (calls === 1) throw new Error('ClickHouse unavailable');
      await ensureClickHouseDatabase({ url: CLICKHOUSE_URL, database: CH_DATABASE_LAZY });
    };
    const store = createAnalyticsStore({
      db: undefined as never,
      clickhouse: { client: ch, database: CH_DATABASE_LAZY, ensureDatabase },
    }).mcpCalls;
    // Not reaching ClickHouse is an outage: a 503 with the driver's error as its cause.
    await expect(store.list({})).rejects.toMatchObject({
      status: 503,
      cause: new Error('ClickHouse unavailable'),
    });
    const record = call();
    await Promise.all([store.insert([record]), store.list({})]);
    expect(calls).toBe(2);
    expect(await store.list({})).toEqual({ total: 1, entries: [record] });
  });
});
