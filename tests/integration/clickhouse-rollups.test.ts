import type { ClickHouseClient } from '@clickhouse/client-web';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { chIdent, chSql } from '../../shared/src/logs/analytics/clickhouse-sql';
import { chQuery } from '../../shared/src/logs/analytics/clickhouse-table';
import { type UsageGroupBy, usageAggregateQuery } from '../../shared/src/logs/requests/aggregate-query';
import { breakdownQuery } from '../../shared/src/logs/requests/breakdown-query';
import {
  fromUsageBucketRow,
  type SelectedUsageBucketRow,
  usageAggregateSql,
} from '../../shared/src/logs/requests/clickhouse-aggregate';
import {
  clientUsageSql,
  errorCountsSql,
  fromClientRow,
  fromErrorRow,
  fromLoggedUsage,
  type SelectedClientRow,
  type SelectedErrorRow,
  type SelectedLoggedUsage,
  usageSinceSql,
} from '../../shared/src/logs/requests/clickhouse-breakdowns';
import {
  maintainRequestRollups,
  REQUEST_ROLLUP_TABLE,
  ROLLUP_ALL,
  ROLLUP_KEY,
  ROLLUP_USER,
} from '../../shared/src/logs/requests/clickhouse-rollup';
import { createClickHouseRequestLogStore } from '../../shared/src/logs/requests/clickhouse-store';
import { REQUEST_LOG_TABLE, requestLogSchema } from '../../shared/src/logs/requests/log-columns';
import type { UsageSinceFilter } from '../../shared/src/logs/requests/port';
import type { RequestLogRecord } from '../../shared/src/logs/requests/record';
import {
  CLICKHOUSE_ROW_FORMAT,
  createClickHouse,
  ensureClickHouseDatabase,
} from '../../shared/src/stores/clickhouse';
import { loggedQueries, observedClient } from '../helpers/clickhouse-observed';
import { CLICKHOUSE_URL } from '../helpers/env';
import { requestLogRecord } from '../helpers/request-log-record';

const DATABASE = 'sluice_it_rollups';
const UPGRADED = 'sluice_it_rollups_upgraded';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const DAY1 = Date.UTC(2025, 5, 9);
const [DAY2, DAY3] = [DAY1 + DAY, DAY1 + 2 * DAY];
/** Three days of only one kind of request (few groups an hour), to see what a read reads. */
const DENSE1 = DAY1 + 10 * DAY;
const DENSE = 6_000;
const USERS = ['7a000000-0000-4000-8000-0000000000a1', '7a000000-0000-4000-8000-0000000000a2', null];
const KEYS = ['7b000000-0000-4000-8000-0000000000b1', '7b000000-0000-4000-8000-0000000000b2', null];
const CLIENTS = [
  [null, null],
  ['claude-code', '2.1.3'],
  ['claude-code', '2.1.4'],
  ['codex', null],
  ['', ''],
] as const;
const FAILURES = [
  [200, null],
  [200, null],
  [200, null],
  [429, 'rate_limit_error'],
  [502, 'api_error'],
  [500, null],
] as const;

/** A deterministic mix: instants anywhere in the three days, some on the hour exactly. */
function mixedRecords(count: number): RequestLogRecord[] {
  let seed = 49;
  const next = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed % n;
  };
  return Array.from({ length: count }, (_, i) => {
    const onTheHour = i % 17 === 0;
    const at = onTheHour ? DAY1 + next(72) * HOUR : DAY1 + next(3 * DAY);
    const [clientName, clientVersion] = CLIENTS[next(CLIENTS.length)] ?? [null, null];
    const [statusCode, errorType] = FAILURES[next(FAILURES.length)] ?? [200, null];
    const priced = next(5) !== 0;
    return requestLogRecord({
      createdAt: new Date(at),
      userId: USERS[next(USERS.length)] ?? null,
      apiKeyId: KEYS[next(KEYS.length)] ?? null,
      model: ['m-a', 'm-b', 'm-c'][next(3)],
      endpoint: next(2) === 0 ? '/v1/chat/completions' : '/v1/messages',
      clientName,
      clientVersion,
      statusCode,
      errorType,
      promptTokens: next(5000),
      completionTokens: next(900),
      totalTokens: next(6000),
      cachedTokens: next(300),
      cacheWriteTokens: next(200),
      reasoningTokens: next(100),
      costUsd: priced ? next(100_000) / 1_000_000 : null,
      unpriced: !priced,
      latencyMs: next(20_000),
    });
  });
}

/** 6,000 requests of one user, model and client over three days: a few groups an hour. */
function denseRecords(start: number): RequestLogRecord[] {
  return Array.from({ length: DENSE }, (_, i) =>
    requestLogRecord({
      createdAt: new Date(start + Math.floor((i * 3 * DAY) / DENSE) + (i % 1000)),
      userId: USERS[0],
      model: 'dense',
      statusCode: i % 10 === 0 ? 502 : 200,
      errorType: i % 10 === 0 ? 'api_error' : null,
      promptTokens: i,
      costUsd: i / 1000,
    }),
  );
}

let ch: ClickHouseClient;
const sent: string[] = [];

/** The store's client, its SELECTs logged to system.query_log under ids recorded here. */
function observed(client: ClickHouseClient): ClickHouseClient {
  return observedClient(client, (id) => sent.push(id));
}

function storeOn(database: string) {
  return createClickHouseRequestLogStore(observed(ch), {
    database,
    ensureDatabase: () => ensureClickHouseDatabase({ url: CLICKHOUSE_URL, database }),
    timeoutMs: 10_000,
  });
}

type Store = ReturnType<typeof storeOn>;

interface Question {
  from: Date;
  to: Date;
  model?: string;
  userId?: string;
}

/** What the log alone answers (the same SQL as before the rollups, over every row in range). */
async function fromTheLog(database: string, q: Question, groupBy: UsageGroupBy) {
  const table = chIdent(database, REQUEST_LOG_TABLE);
  const select = <T>(sql: ReturnType<typeof chSql>) => chQuery<T>(ch, sql);
  const usage = usageAggregateQuery({ ...q, groupBy });
  const breakdown = breakdownQuery(q);
  const since = async (filter: UsageSinceFilter) =>
    (await select<SelectedLoggedUsage>(usageSinceSql(table, filter))).map(fromLoggedUsage);
  return {
    usage: (await select<SelectedUsageBucketRow>(usageAggregateSql(table, usage))).map(fromUsageBucketRow),
    clients: (await select<SelectedClientRow>(clientUsageSql(table, breakdown))).map(fromClientRow),
    errors: (await select<SelectedErrorRow>(errorCountsSql(table, breakdown))).map(fromErrorRow),
    since: [...(await since(userSince(q))), ...(await since(keySince(q)))],
  };
}

/** The month usage (GET /v1/usage) of the question's user (or the first), and of a key, since its from. */
const userSince = (q: Question): UsageSinceFilter => ({ since: q.from, userId: q.userId ?? USERS[0] ?? '' });
const keySince = (q: Question): UsageSinceFilter => ({ since: q.from, apiKeyId: KEYS[1] ?? '' });

async function fromTheStore(store: Store, q: Question, groupBy: UsageGroupBy) {
  return {
    usage: await store.aggregate({ ...q, groupBy }),
    clients: await store.clientUsage(q),
    errors: await store.errorCounts(q),
    since: [await store.usageSince(userSince(q)), await store.usageSince(keySince(q))],
  };
}

/** Rows in a stable order, costs to 1e-9 (floats summed in another order). */
function normalized(answer: Awaited<ReturnType<typeof fromTheStore>>) {
  const sorted = <T>(rows: T[]) =>
    rows
      .map((row) =>
        'costUsd' in (row as object)
          ? { ...row, costUsd: Math.round((row as { costUsd: number }).costUsd * 1e9) / 1e9 }
          : row,
      )
      .map((row) => JSON.stringify(row))
      .sort();
  return {
    usage: sorted(answer.usage),
    clients: sorted(answer.clients),
    errors: sorted(answer.errors),
    since: sorted(answer.since),
  };
}

async function expectAsTheLog(store: Store, database: string, q: Question, groupBy: UsageGroupBy = 'hour') {
  const [mine, truth] = await Promise.all([
    fromTheStore(store, q, groupBy),
    fromTheLog(database, q, groupBy),
  ]);
  expect(normalized(mine)).toEqual(normalized(truth));
  return truth.usage.length;
}

/** read_rows summed over the queries one call sent (system.query_log, once flushed). */
async function rowsRead(call: () => Promise<unknown>): Promise<number> {
  const rows = await loggedQueries<{ read_rows: string }>(ch, sent, chSql`read_rows`, call);
  return rows.reduce((sum, row) => sum + Number(row.read_rows), 0);
}

/** The requests the rollup holds in its groups of one kind. */
async function rolledRequests(database: string, kind = ROLLUP_ALL): Promise<number> {
  const [row] = await chQuery<{ n: string }>(
    ch,
    chSql`SELECT sum(n_requests) AS n FROM ${chIdent(database, REQUEST_ROLLUP_TABLE)} WHERE kind = ${kind}`,
  );
  return Number(row?.n ?? 0);
}

const RANGES: [string, Question][] = [
  ['the three days exactly', { from: new Date(DAY1), to: new Date(DAY3 + DAY - 1) }],
  [
    'from and to inside hours',
    { from: new Date(DAY1 + 5 * HOUR + 123), to: new Date(DAY3 + 7 * HOUR + 3_599_999) },
  ],
  ['within one hour', { from: new Date(DAY2 + 3 * HOUR + 10), to: new Date(DAY2 + 3 * HOUR + 1_200_000) }],
  ['to on the hour (inclusive)', { from: new Date(DAY2), to: new Date(DAY2 + 5 * HOUR) }],
  ['one day and a millisecond of the next', { from: new Date(DAY2), to: new Date(DAY3) }],
  ['empty days around them', { from: new Date(DAY1 - 9 * DAY + 77), to: new Date(DAY3 + 9 * DAY) }],
];

beforeAll(async () => {
  ch = createClickHouse({ url: CLICKHOUSE_URL, database: 'default', requestTimeoutMs: 20_000 });
  for (const database of [DATABASE, UPGRADED]) {
    await ch.command({ query: chSql`DROP DATABASE IF EXISTS ${chIdent(database)}`.sql });
  }
});

afterAll(async () => {
  for (const database of [DATABASE, UPGRADED]) {
    await ch?.command({ query: chSql`DROP DATABASE IF EXISTS ${chIdent(database)}`.sql });
  }
  await ch?.close();
});

describe('analytics over the rollups', () => {
  let store: Store;
  const mixed = mixedRecords(900);
  const dense = denseRecords(DENSE1);

  beforeAll(async () => {
    store = storeOn(DATABASE);
    // Several inserts: the views see each, as the gateway's batches.
    for (let i = 0; i < mixed.length; i += 300) await store.insert(mixed.slice(i, i + 300));
    await store.insert(dense);
  });

  it('are fed every logged request, by every user and of none', async () => {
    expect(await rolledRequests(DATABASE)).toBe(mixed.length + dense.length);
    expect(await rolledRequests(DATABASE, ROLLUP_USER)).toBe(mixed.length + dense.length);
    expect(await rolledRequests(DATABASE, ROLLUP_KEY)).toBe(mixed.length + dense.length);
  });

  it.each(RANGES)('answer %s as the log does', async (_name, range) => {
    for (const groupBy of ['hour', 'day', 'week'] as const) {
      expect(await expectAsTheLog(store, DATABASE, range, groupBy)).toBeGreaterThan(0);
    }
  });

  it.each(RANGES)('answer %s for one model or one user as the log does', async (_name, range) => {
    await expectAsTheLog(store, DATABASE, { ...range, model: 'm-b' }, 'day');
    await expectAsTheLog(store, DATABASE, { ...range, userId: USERS[1] ?? undefined }, 'hour');
    await expectAsTheLog(store, DATABASE, { ...range, userId: USERS[0] ?? undefined, model: 'm-a' }, 'week');
  });

  it('read whole hours from the rollup, not the log', async () => {
    const range = { from: new Date(DENSE1), to: new Date(DENSE1 + 3 * DAY - 1) };
    for (const call of [
      () => store.aggregate({ ...range, groupBy: 'day' }),
      () => store.aggregate({ ...range, groupBy: 'hour', userId: USERS[0] ?? undefined }),
      () => store.clientUsage(range),
      () => store.errorCounts({ ...range, model: 'dense' }),
      () => store.usageSince({ since: range.from, userId: USERS[0] ?? '' }),
    ]) {
      // 6,000 rows in the log; a few groups an hour in the rollup (read by granule, with its day
      // totals: every kind of group of these days, a few hundred rows).
      expect(await rowsRead(call)).toBeLessThan(DENSE / 4);
    }
    await expectAsTheLog(store, DATABASE, range, 'day');
  });
});

describe('rows the rollups never saw', () => {
  let store: Store;
  const before = denseRecords(DAY1);
  const after = requestLogRecord({
    createdAt: new Date(DAY2 + 7 * HOUR + 1),
    userId: USERS[0],
    model: 'dense',
  });
  const everything = { from: new Date(DAY1), to: new Date(DAY3 + DAY - 1) };

  beforeAll(async () => {
    // A log of an earlier release: the table alone, written to before any view existed.
    await ensureClickHouseDatabase({ url: CLICKHOUSE_URL, database: UPGRADED });
    await ch.command({ query: requestLogSchema.ddl(UPGRADED).sql });
    await ch.insert({
      table: chIdent(UPGRADED, REQUEST_LOG_TABLE).sql,
      values: before.map((r) => requestLogSchema.toRow(r)),
      format: CLICKHOUSE_ROW_FORMAT,
    });
    store = storeOn(UPGRADED);
    // The first use creates the rollups and views; this row is the only one they see.
    await store.insert([after]);
  });

  it('are read from the log: every answer is still exact', async () => {
    expect(await rolledRequests(UPGRADED)).toBe(1);
    await expectAsTheLog(store, UPGRADED, everything, 'day');
    await expectAsTheLog(store, UPGRADED, { ...everything, userId: USERS[0] ?? undefined }, 'hour');
  });

  it('are rolled up by the maintenance that runs with retention, once their day is over', async () => {
    // Today is DAY3: the two days before are rebuilt, DAY3 is left to its view until it ends.
    const today = await maintainRequestRollups(ch, UPGRADED, new Date(0), new Date(DAY3 + 12 * HOUR));
    expect(today).toEqual({ rebuilt: ['20250609', '20250610'], dropped: [] });
    const later = await maintainRequestRollups(ch, UPGRADED, new Date(0), new Date(DAY3 + 3 * DAY));
    expect(later).toEqual({ rebuilt: ['20250611'], dropped: [] });
    expect(await rolledRequests(UPGRADED)).toBe(before.length + 1);
    expect(await rolledRequests(UPGRADED, ROLLUP_USER)).toBe(before.length + 1);
    expect(await rolledRequests(UPGRADED, ROLLUP_KEY)).toBe(before.length + 1);
    await expectAsTheLog(store, UPGRADED, everything, 'day');
    expect(await rowsRead(() => store.aggregate({ ...everything, groupBy: 'hour' }))).toBeLessThan(DENSE / 4);
    // Nothing differs any more: nothing to do.
    expect(await maintainRequestRollups(ch, UPGRADED, new Date(0), new Date(DAY3 + 3 * DAY))).toEqual({
      rebuilt: [],
      dropped: [],
    });
  });

  it("follow retention: a day's rows deleted from the log are read from it, then rebuilt; older days dropped", async () => {
    const table = chIdent(UPGRADED, REQUEST_LOG_TABLE);
    // The straddling day's DELETE (retention/clickhouse.ts), applied before the checks.
    await ch.command({
      query: chSql`ALTER TABLE ${table} DELETE WHERE created_at_ms < ${DAY2 + 6 * HOUR}`.sql,
    });
    await vi.waitFor(
      async () => {
        const [running] = await chQuery<{ n: string }>(
          ch,
          chSql`SELECT count() AS n FROM system.mutations
            WHERE database = ${UPGRADED} AND table = ${REQUEST_LOG_TABLE} AND is_done = 0`,
        );
        expect(Number(running?.n)).toBe(0);
      },
      { timeout: 10_000, interval: 100 },
    );
    await expectAsTheLog(store, UPGRADED, { from: new Date(DAY2), to: new Date(DAY3 + DAY - 1) }, 'hour');
    const maintained = await maintainRequestRollups(ch, UPGRADED, new Date(DAY2), new Date(DAY3 + 3 * DAY));
    expect(maintained).toEqual({ rebuilt: ['20250610'], dropped: ['20250609'] });
    await expectAsTheLog(store, UPGRADED, { from: new Date(DAY2), to: new Date(DAY3 + DAY - 1) }, 'hour');
  });
});
