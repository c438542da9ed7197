// The log stores' reads against the real ClickHouse 18.16. A time-bounded query bounds
// the tables' partition and sort key (created_at) as well as the exact created_at_ms, so a one-day
// question reads one day's partition (system.query_log read_rows), every bounded read is refused
// nothing under force_primary_key / force_index_by_date, and the bounds, widened to whole seconds
// on the key, still cut to the millisecond. And a query whose caller gave up (client timeout) or
// whose deadline passed (max_execution_time) does not stay in system.processes.
import { randomInt, randomUUID } from 'node:crypto';
import type { ClickHouseClient } from '@clickhouse/client-web';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { chIdent, chSql } from '../../shared/src/logs/analytics/clickhouse-sql';
import { chQuery } from '../../shared/src/logs/analytics/clickhouse-table';
import { createClickHouseMcpLogStore } from '../../shared/src/logs/mcp/clickhouse-store';
import { REQUEST_ROLLUP_TABLE } from '../../shared/src/logs/requests/clickhouse-rollup';
import { createClickHouseRequestLogStore } from '../../shared/src/logs/requests/clickhouse-store';
import type { RequestLogRecord } from '../../shared/src/logs/requests/record';
import type { McpLogRecord } from '../../shared/src/mcp/ports';
import {
  CLICKHOUSE_ROW_FORMAT,
  createClickHouse,
  ensureClickHouseDatabase,
} from '../../shared/src/stores/clickhouse';
import { loggedQueries, observedClient } from '../helpers/clickhouse-observed';
import { CLICKHOUSE_URL } from '../helpers/env';
import { requestLogRecord } from '../helpers/request-log-record';

const DATABASE = 'sluice_it_key_bounds';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Three UTC days, each its own partition; the middle one is asked about. */
const DAY1 = Date.UTC(2025, 2, 3);
const DAY2 = DAY1 + DAY;
const DAY3 = DAY2 + DAY;
const PER_DAY = 30;
const USER = '7a000000-0000-4000-8000-000000000049';
const SERVER = '7c000000-0000-4000-8000-000000000049';

/** PER_DAY rows a day: the day's first and last millisecond, the rest spread over its hours. */
function instantsOf(day: number): Date[] {
  return Array.from({ length: PER_DAY }, (_, i) =>
    i === 0
      ? new Date(day)
      : i === 1
        ? new Date(day + DAY - 1)
        : new Date(day + (i - 2) * 50 * 60_000 + i * 7),
  );
}
const INSTANTS = [DAY1, DAY2, DAY3].flatMap(instantsOf);

const requests: RequestLogRecord[] = INSTANTS.map((createdAt, i) =>
  requestLogRecord({
    createdAt,
    userId: USER,
    model: i % 2 === 0 ? 'bounds-a' : 'bounds-b',
    statusCode: i % 5 === 0 ? 502 : 200,
    errorType: i % 5 === 0 ? 'api_error' : null,
    costUsd: (i % 7) / 100,
    latencyMs: 10 + (i % 13),
  }),
);
const mcpCalls: McpLogRecord[] = INSTANTS.map((createdAt, i) => ({
  id: randomUUID(),
  createdAt,
  userId: USER,
  apiKeyId: null,
  serverId: SERVER,
  serverName: 'bounds',
  toolName: 'echo',
  status: i % 4 === 0 ? 'error' : 'success',
  durationMs: i,
  error: null,
}));

/** The ids of the queries each store call sent, and whether to make ClickHouse insist on the key. */
const sent: string[] = [];
let strict = false;

/**
 * The stores' client as seen by ClickHouse: every SELECT logged to system.query_log under an id
 * recorded here; in strict mode with force_primary_key and force_index_by_date, so a query that
 * cannot use the sort key or the partition key's min/max index fails instead of reading it all.
 */
function observed(client: ClickHouseClient): ClickHouseClient {
  return observedClient(
    client,
    (id) => sent.push(id),
    (): Record<string, number> => (strict ? { force_primary_key: 1, force_index_by_date: 1 } : {}),
  );
}

let ch: ClickHouseClient;
let stores: {
  requests: ReturnType<typeof createClickHouseRequestLogStore>;
  mcp: ReturnType<typeof createClickHouseMcpLogStore>;
};

async function rowsOf<T>(sql: string, client: ClickHouseClient = ch): Promise<T[]> {
  return (await client.query({ query: sql, format: CLICKHOUSE_ROW_FORMAT })).json<T>();
}

/** read_rows of every query the call sent, with its text (system.query_log, once flushed). */
async function readRowsOf(call: () => Promise<unknown>): Promise<{ read: number; query: string }[]> {
  const rows = await loggedQueries<{ read_rows: string; query: string }>(
    ch,
    sent,
    chSql`read_rows, query`,
    call,
  );
  return rows.map((row) => ({ read: Number(row.read_rows), query: row.query }));
}

/** The settings ClickHouse ran each query of the call with (system.query_log, once flushed). */
async function settingsOf(call: () => Promise<unknown>): Promise<Record<string, string>[]> {
  const rows = await loggedQueries<{ names: string[]; values: string[]; query: string }>(
    ch,
    sent,
    chSql`Settings.Names AS names, Settings.Values AS values, query`,
    call,
  );
  return rows
    .filter((row) => !row.query.includes('system.'))
    .map((row) => Object.fromEntries(row.names.map((name, i) => [name, row.values[i] ?? ''])));
}

/** The rows of one day's partition of a table of the database. */
async function partitionRows(table: string, partition: string): Promise<number> {
  const [row] = await rowsOf<{ n: string }>(
    chSql`SELECT sum(rows) AS n FROM system.parts
      WHERE database = ${DATABASE} AND table = ${table} AND partition = ${partition} AND active`.sql,
  );
  return Number(row?.n ?? 0);
}

beforeAll(async () => {
  ch = createClickHouse({ url: CLICKHOUSE_URL, database: 'default', requestTimeoutMs: 10_000 });
  await ch.command({ query: chSql`DROP DATABASE IF EXISTS ${chIdent(DATABASE)}`.sql });
  const client = observed(ch);
  const options = {
    database: DATABASE,
    ensureDatabase: () => ensureClickHouseDatabase({ url: CLICKHOUSE_URL, database: DATABASE }),
    timeoutMs: 10_000,
  };
  stores = {
    requests: createClickHouseRequestLogStore(client, options),
    mcp: createClickHouseMcpLogStore(client, options),
  };
  await stores.requests.insert(requests);
  await stores.mcp.insert(mcpCalls);
});

afterAll(async () => {
  await ch?.command({ query: chSql`DROP DATABASE IF EXISTS ${chIdent(DATABASE)}`.sql });
  await ch?.close();
});

const day2 = { from: new Date(DAY2), to: new Date(DAY2 + DAY - 1) };
const inDay2 = <T extends { createdAt: Date }>(rows: readonly T[]) =>
  rows.filter((row) => row.createdAt.getTime() >= DAY2 && row.createdAt.getTime() < DAY2 + DAY);

describe('a time-bounded read of the logs in ClickHouse', () => {
  it('holds one partition per day, and the data', async () => {
    const parts = await rowsOf<{ partition: string; rows: string }>(
      chSql`SELECT partition, sum(rows) AS rows FROM system.parts
        WHERE database = ${DATABASE} AND table = 'request_logs' AND active GROUP BY partition ORDER BY partition`
        .sql,
    );
    expect(parts).toEqual([
      { partition: '20250303', rows: String(PER_DAY) },
      { partition: '20250304', rows: String(PER_DAY) },
      { partition: '20250305', rows: String(PER_DAY) },
    ]);
  });

  // Each call must read no more than the asked-for day's rows in any of its queries (each day is
  // one part of one granule here, so reading a second partition would show as more rows).
  const oneDayCalls: [string, () => Promise<unknown>][] = [
    ['the usage aggregate', () => stores.requests.aggregate({ ...day2, groupBy: 'hour' })],
    ['the client breakdown', () => stores.requests.clientUsage(day2)],
    ['the error breakdown', () => stores.requests.errorCounts(day2)],
    ['the log search, newest first', () => stores.requests.search(day2)],
    ['the log search by cost', () => stores.requests.search({ ...day2, sortBy: 'cost_usd' })],
    ['the log search by latency', () => stores.requests.search({ ...day2, sortBy: 'latency_ms' })],
    ['the log search by user', () => stores.requests.search({ ...day2, userId: USER, limit: 5, offset: 3 })],
    [
      'the month usage since an instant',
      () => stores.requests.usageSince({ userId: USER, since: new Date(DAY3) }),
    ],
    [
      'the counted usage',
      () => stores.requests.countedUsage({ since: new Date(DAY2), before: new Date(DAY3) }),
    ],
    ['the MCP log, newest first', () => stores.mcp.list(day2)],
    ['the MCP log by duration', () => stores.mcp.list({ ...day2, sortBy: 'duration_ms' })],
  ];

  it.each(oneDayCalls)('%s reads only the day asked about', async (_name, call) => {
    // The analytics read whole hours from the request log's rollup, fed on insert
    // (clickhouse-rollup.ts), which has day partitions too; which days it holds exactly is
    // asked of system.parts, not a table read.
    const rollupDay = await partitionRows(REQUEST_ROLLUP_TABLE, '20250304');
    expect(rollupDay).toBeGreaterThan(0);
    const read = (await readRowsOf(call)).filter((q) => !q.query.includes('system.parts'));
    expect(read.length).toBeGreaterThan(0);
    for (const { read: rows, query } of read) {
      expect(rows).toBeLessThanOrEqual(query.includes(`\`${REQUEST_ROLLUP_TABLE}\``) ? rollupDay : PER_DAY);
    }
  });

  it.each(
    oneDayCalls,
  )('%s uses the partition and sort key (force_primary_key, force_index_by_date)', async (_name, call) => {
    strict = true;
    try {
      await expect(call()).resolves.toBeDefined();
    } finally {
      strict = false;
    }
  });

  // A ranked page over a long range reads its rows from as many granules as it has rows, and
  // 18.16's default 1 MiB read buffer per column and part was most of that page's time
  // (clickhouse-table.ts READ_SETTINGS): every page and search runs with 64 KiB, as ClickHouse
  // itself logged the settings it ran them with.
  it.each(
    oneDayCalls.filter(([name]) => name.startsWith('the log search') || name.startsWith('the MCP log')),
  )('%s reads with a 64 KiB buffer per column', async (_name, call) => {
    const settings = await settingsOf(call);
    expect(settings.length).toBeGreaterThan(0);
    for (const set of settings) expect(set.max_read_buffer_size).toBe('65536');
  });

  it('answers the one day exactly, its first and last millisecond included', async () => {
    const expected = inDay2(requests);
    expect(expected).toHaveLength(PER_DAY);
    const buckets = await stores.requests.aggregate({ ...day2, groupBy: 'day' });
    expect(buckets.reduce((sum, row) => sum + row.requests, 0)).toBe(PER_DAY);
    const page = await stores.requests.search({ ...day2, limit: 200 });
    expect(page.total).toBe(PER_DAY);
    expect(new Set(page.entries.map((r) => r.id))).toEqual(new Set(expected.map((r) => r.id)));
    const mcp = await stores.mcp.list({ ...day2, limit: 200 });
    expect(mcp.total).toBe(PER_DAY);
  });

  it('cuts within a second to the millisecond: the key bound is widened, the exact one is not', async () => {
    // DAY2's first row is at 00:00:00.000 and its last at 23:59:59.999: bounds a millisecond
    // inside leave both out, though the key bounds, widened to whole seconds, take them in.
    const from = new Date(DAY2 + 1);
    const to = new Date(DAY3 - 2);
    const expected = requests.filter((r) => r.createdAt >= from && r.createdAt <= to);
    expect(expected).toHaveLength(PER_DAY - 2);
    const page = await stores.requests.search({ from, to, limit: 200 });
    expect(page.total).toBe(PER_DAY - 2);
    const usage = await stores.requests.aggregate({ from, to, groupBy: 'week' });
    expect(usage.reduce((sum, row) => sum + row.requests, 0)).toBe(PER_DAY - 2);
    // And the same second's other millisecond is in: DAY3's first row, at DAY3 + 0 ms.
    const last = await stores.requests.search({ from: new Date(DAY3), to: new Date(DAY3), limit: 10 });
    expect(last.total).toBe(1);
  });

  it('pages newest first across the hours the page spans, as a full sort would', async () => {
    const all = [...requests].sort(
      (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1),
    );
    for (const [offset, limit] of [
      [0, 7],
      [7, 7],
      [28, 5],
      [85, 10],
      [90, 10],
    ] as const) {
      const page = await stores.requests.search({ offset, limit });
      expect(page.total).toBe(requests.length);
      expect(page.entries.map((r) => r.id)).toEqual(all.slice(offset, offset + limit).map((r) => r.id));
    }
  });
});

describe('a query whose caller gave up', () => {
  /** A query that would run for minutes, findable in system.processes by its marker. */
  const slowQuery = (marker: number) =>
    chSql`SELECT count() FROM numbers(10000000000) WHERE number != ${marker}`;

  /** The ids of the queries with the marker that ClickHouse is running. */
  async function running(marker: number): Promise<string[]> {
    const rows = await rowsOf<{ query_id: string }>(
      chSql`SELECT query_id FROM system.processes
        WHERE position(query, ${String(marker)}) > 0 AND position(query, 'system.processes') = 0`.sql,
    );
    return rows.map((row) => row.query_id);
  }

  async function settles(marker: number): Promise<string[]> {
    // KILL QUERY … ASYNC returns at once; the query stops at its next block.
    await vi
      .waitFor(async () => expect(await running(marker)).toEqual([]), { timeout: 4_000, interval: 100 })
      .catch(() => {});
    return running(marker);
  }

  it('18.16 keeps running a query whose HTTP client timed out (why chQuery kills it)', async () => {
    const impatient = createClickHouse({ url: CLICKHOUSE_URL, requestTimeoutMs: 300 });
    const marker = randomInt(1e9, 2e9);
    try {
      await expect(
        impatient.query({ query: slowQuery(marker).sql, format: CLICKHOUSE_ROW_FORMAT }),
      ).rejects.toThrow();
      // A real wait is what is tested: the server does not stop the query when the client
      // leaves, not even some time later.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await running(marker)).toHaveLength(1);
    } finally {
      for (const id of await running(marker)) {
        await ch.command({ query: chSql`KILL QUERY WHERE query_id = ${id} SYNC`.sql });
      }
      await impatient.close();
    }
    expect(await settles(marker)).toEqual([]);
  });

  it('is killed when the client times out before it ends', async () => {
    const impatient = createClickHouse({ url: CLICKHOUSE_URL, requestTimeoutMs: 300 });
    const marker = randomInt(1e9, 2e9);
    try {
      // No max_execution_time here: the KILL alone must end it.
      await expect(chQuery(impatient, slowQuery(marker))).rejects.toThrow(/Timeout/);
      expect(await settles(marker)).toEqual([]);
    } finally {
      await impatient.close();
    }
  });

  it('ends at its deadline in ClickHouse too (max_execution_time from the caller timeout)', async () => {
    const marker = randomInt(1e9, 2e9);
    const started = Date.now();
    // The client would wait 10 s; ClickHouse stops it at 1 s.
    await expect(chQuery(ch, slowQuery(marker), 1_000)).rejects.toThrow(/Timeout exceeded/);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await settles(marker)).toEqual([]);
  });
});
