// The AnalyticsStore port (shared/src/logs/analytics/store.ts) and its two adapters,
// Postgres through the dev sidecar (Neon HTTP) and ClickHouse 18.16 through @clickhouse/client-web,
// held to ONE contract: the same records go into every log, the same questions get the same
// answers (computed here from the records), and purgeBefore removes exactly the rows older than
// the cutoff from every log. The per-log suites (ledger-stores, mcp-log-stores, server-log-stores,
// retention) go deeper into each log's filters.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { chIdent, chSql } from '../../shared/src/logs/analytics/clickhouse-sql';
import {
  type AnalyticsStore,
  createClickHouseAnalyticsStore,
  createPostgresAnalyticsStore,
} from '../../shared/src/logs/analytics/store';
import type { UsageBucketRow } from '../../shared/src/logs/requests/aggregate-query';
import type { ClientUsageRow, ErrorCountRow } from '../../shared/src/logs/requests/breakdown-query';
import type { RequestLogRecord } from '../../shared/src/logs/requests/record';
import type { AccessLogRecord, AppLogRecord } from '../../shared/src/logs/server/records';
import type { McpLogRecord } from '../../shared/src/mcp/ports';
import { createClickHouse, ensureClickHouseDatabase } from '../../shared/src/stores/clickhouse';
import { configureNeon, createHttpDb } from '../../shared/src/stores/neon';
import { CLICKHOUSE_URL } from '../helpers/env';
import { freshDatabase } from '../helpers/stores';

const CH_DATABASE = 'sluice_it_analytics_store';
const USER = '7a000000-0000-4000-8000-000000000001';
const KEY = '7b000000-0000-4000-8000-000000000001';
const SERVER = '7c000000-0000-4000-8000-000000000001';
const DAY = 86_400_000;
/** A UTC midnight: every older row lies in a whole older day, so ClickHouse drops whole partitions. */
const CUTOFF = new Date(Date.UTC(2025, 4, 10));
/** Four days on each side of the cutoff, a few rows per day at different hours. */
const INSTANTS = [-4, -3, -1, 0, 1, 3].flatMap((day) =>
  [1, 9, 23].map((hour) => new Date(CUTOFF.getTime() + day * DAY + hour * 3_600_000 + 123)),
);

const uuid = (kind: number, i: number) =>
  `${kind.toString(16).padStart(8, '0')}-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;

/** Who called, by i % 4: two versions of one agent, another agent, and a client without a User-Agent. */
const CLIENTS = [
  ['claude-code', '2.1.3'],
  ['codex', '0.171.0'],
  [null, null],
  ['claude-code', '2.1.4'],
] as const;

function requestRecord(at: Date, i: number): RequestLogRecord {
  const priced = i % 3 !== 0;
  const [clientName, clientVersion] = CLIENTS[i % 4] ?? [null, null];
  const failure = i % 5 === 0 ? 502 : i % 7 === 6 ? 429 : null;
  return {
    id: uuid(1, i),
    createdAt: at,
    userId: USER,
    apiKeyId: KEY,
    endpoint: i % 2 === 0 ? '/v1/chat/completions' : '/v1/messages',
    model: i % 2 === 0 ? 'contract-a' : 'contract-b',
    provider: 'fake',
    providerType: 'openai',
    upstreamModel: 'gpt-4o',
    routeId: null,
    stream: i % 4 === 0,
    statusCode: failure ?? 200,
    errorType: failure === 502 ? 'api_error' : failure === 429 ? 'rate_limit_error' : null,
    errorMessage: null,
    promptTokens: 100 + i,
    completionTokens: 10 * i,
    cachedTokens: 3 * i,
    cacheWriteTokens: 2 * i,
    cacheWriteHourTokens: i,
    reasoningTokens: i % 2 === 0 ? 0 : i,
    totalTokens: 100 + 11 * i,
    weightedTokens: 100 + 11 * i,
    costUsd: priced ? (i + 1) / 1000 : null,
    unpriced: !priced,
    latencyMs: 20 + i,
    upstreamLatencyMs: 10 + i,
    cacheHit: false,
    attempts: 1,
    clientAborted: false,
    usageEstimated: i % 11 === 4,
    uncounted: i % 6 === 1,
    guardrail: null,
    reasoningEffort: i % 2 === 0 ? null : 'high',
    clientName,
    clientVersion,
    userAgent: clientName === null ? null : `${clientName}/${clientVersion} (it's a test)`,
    sessionId: clientName === null ? null : `session-${i % 3}`,
  };
}

const mcpRecord = (at: Date, i: number): McpLogRecord => ({
  id: uuid(2, i),
  createdAt: at,
  userId: USER,
  apiKeyId: KEY,
  serverId: SERVER,
  serverName: 'contract-server',
  toolName: i % 2 === 0 ? 'echo' : 'add',
  status: i % 4 === 0 ? 'error' : 'success',
  durationMs: 5 * i,
  error: i % 4 === 0 ? 'tool failed' : null,
});

const accessRecord = (at: Date, i: number): AccessLogRecord => ({
  id: uuid(3, i),
  createdAt: at,
  source: i % 2 === 0 ? 'gateway' : 'console',
  port: i % 2 === 0 ? 3000 : 3001,
  method: i % 3 === 0 ? 'POST' : 'GET',
  path: i % 3 === 0 ? '/v1/chat/completions' : '/api/keys',
  statusCode: i % 5 === 0 ? 500 : 200,
  userId: i % 2 === 0 ? USER : null,
  latencyMs: i,
  ip: '198.51.100.4',
  userAgent: 'contract-test',
});

const appRecord = (at: Date, i: number): AppLogRecord => ({
  id: uuid(4, i),
  createdAt: at,
  level: i % 3 === 0 ? 'INFO' : i % 3 === 1 ? 'WARN' : 'ERROR',
  source: i % 2 === 0 ? 'gateway' : 'console',
  target: 'contract',
  message: `line ${i}`,
  fields: { i },
});

const requests = INSTANTS.map(requestRecord);
const mcpCalls = INSTANTS.map(mcpRecord);
const access = INSTANTS.map(accessRecord);
const app = INSTANTS.map(appRecord);

const newestFirst = <T extends { id: string; createdAt: Date }>(rows: readonly T[]) =>
  [...rows].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
const ids = (rows: readonly { id: string }[]) => rows.map((row) => row.id);
const kept = <T extends { createdAt: Date }>(rows: readonly T[]) =>
  rows.filter((row) => row.createdAt >= CUTOFF);

/** What aggregate() must answer per (UTC day, model, endpoint), from the records alone. */
function expectedDailyUsage(rows: readonly RequestLogRecord[]): UsageBucketRow[] {
  const groups = new Map<string, UsageBucketRow>();
  for (const row of rows) {
    const bucketStart = new Date(Math.floor(row.createdAt.getTime() / DAY) * DAY);
    const key = `${bucketStart.toISOString()} ${row.model} ${row.endpoint}`;
    const group = groups.get(key) ?? {
      bucketStart,
      model: row.model,
      endpoint: row.endpoint,
      requests: 0,
      promptTokens: 0,
      completionTokens: 0,
      totalTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
      costUsd: 0,
      unpricedRequests: 0,
      latencyMsSum: 0,
    };
    group.requests += 1;
    group.promptTokens += row.promptTokens;
    group.completionTokens += row.completionTokens;
    group.totalTokens += row.totalTokens;
    group.cacheReadTokens += row.cachedTokens;
    group.cacheWriteTokens += row.cacheWriteTokens;
    group.reasoningTokens += row.reasoningTokens;
    group.costUsd += row.costUsd ?? 0;
    group.unpricedRequests += row.costUsd === null ? 1 : 0;
    group.latencyMsSum += row.latencyMs;
    groups.set(key, group);
  }
  return sortBuckets([...groups.values()]);
}

function sortBuckets(rows: UsageBucketRow[]): UsageBucketRow[] {
  return rows
    .map((row) => ({ ...row, costUsd: Math.round(row.costUsd * 1e9) / 1e9 }))
    .sort(
      (a, b) =>
        a.bucketStart.getTime() - b.bucketStart.getTime() ||
        a.model.localeCompare(b.model) ||
        a.endpoint.localeCompare(b.endpoint),
    );
}

/** What clientUsage() must answer, from the records alone, in a fixed order. */
function expectedClients(rows: readonly RequestLogRecord[]): ClientUsageRow[] {
  const groups = new Map<string, ClientUsageRow>();
  for (const row of rows) {
    const key = JSON.stringify([row.clientName, row.clientVersion]);
    const group = groups.get(key) ?? {
      clientName: row.clientName,
      clientVersion: row.clientVersion,
      requests: 0,
      errors: 0,
      promptTokens: 0,
      completionTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
      costUsd: 0,
      unpricedRequests: 0,
    };
    group.requests += 1;
    group.errors += row.statusCode >= 400 ? 1 : 0;
    group.promptTokens += row.promptTokens;
    group.completionTokens += row.completionTokens;
    group.cacheReadTokens += row.cachedTokens;
    group.cacheWriteTokens += row.cacheWriteTokens;
    group.reasoningTokens += row.reasoningTokens;
    group.costUsd += row.costUsd ?? 0;
    group.unpricedRequests += row.costUsd === null ? 1 : 0;
    groups.set(key, group);
  }
  return sortClients([...groups.values()]);
}

function sortClients(rows: ClientUsageRow[]): ClientUsageRow[] {
  const key = (row: ClientUsageRow) => JSON.stringify([row.clientName, row.clientVersion]);
  return rows
    .map((row) => ({ ...row, costUsd: Math.round(row.costUsd * 1e9) / 1e9 }))
    .sort((a, b) => key(a).localeCompare(key(b)));
}

/** What errorCounts() must answer: requests with a status of 400 or more, by type, client and status. */
function expectedErrors(rows: readonly RequestLogRecord[]): ErrorCountRow[] {
  const groups = new Map<string, ErrorCountRow>();
  for (const row of rows.filter((r) => r.statusCode >= 400)) {
    const key = JSON.stringify([row.errorType, row.clientName, row.statusCode]);
    const group = groups.get(key) ?? {
      errorType: row.errorType,
      clientName: row.clientName,
      statusCode: row.statusCode,
      requests: 0,
    };
    group.requests += 1;
    groups.set(key, group);
  }
  return sortErrors([...groups.values()]);
}

function sortErrors(rows: ErrorCountRow[]): ErrorCountRow[] {
  const key = (row: ErrorCountRow) => JSON.stringify([row.errorType, row.clientName, row.statusCode]);
  return [...rows].sort((a, b) => key(a).localeCompare(key(b)));
}

const adapters = {} as Record<'postgres' | 'clickhouse', AnalyticsStore>;
let closeClickHouse: () => Promise<void> = async () => {};

beforeAll(async () => {
  const sidecar = inject('sidecarEnv');
  configureNeon({ httpEndpoint: sidecar.NEON_LOCAL_HTTP });
  const url = await freshDatabase('sluice_it_analytics_store');
  const client = createClickHouse({ url: CLICKHOUSE_URL, database: 'default', requestTimeoutMs: 10_000 });
  closeClickHouse = () => client.close();
  await client.command({ query: chSql`DROP DATABASE IF EXISTS ${chIdent(CH_DATABASE)}`.sql });
  adapters.postgres = createPostgresAnalyticsStore(createHttpDb(url));
  adapters.clickhouse = createClickHouseAnalyticsStore(
    {
      client,
      database: CH_DATABASE,
      ensureDatabase: () => ensureClickHouseDatabase({ url: CLICKHOUSE_URL, database: CH_DATABASE }),
    },
    createHttpDb(url),
  );
});

afterAll(async () => {
  await closeClickHouse();
});

describe.each(['postgres', 'clickhouse'] as const)('AnalyticsStore contract (%s)', (name) => {
  const store = () => adapters[name];
  const everything = {
    from: new Date(CUTOFF.getTime() - 10 * DAY),
    to: new Date(CUTOFF.getTime() + 10 * DAY),
  };

  it('names its backend', () => {
    expect(store().backend).toBe(name);
  });

  it('stores a batch in every log and reads each back newest first, exactly', async () => {
    await Promise.all([
      store().requests.insert(requests),
      store().mcpCalls.insert(mcpCalls),
      store().access.insert(access),
      store().app.insert(app),
    ]);
    const [requestPage, mcpPage, accessPage, appPage] = await Promise.all([
      store().requests.search({ limit: 200 }),
      store().mcpCalls.list({ limit: 200 }),
      store().access.search({ limit: 200 }),
      store().app.search({ limit: 200 }),
    ]);
    expect(requestPage).toEqual({ total: requests.length, entries: newestFirst(requests) });
    expect(mcpPage).toEqual({ total: mcpCalls.length, entries: newestFirst(mcpCalls) });
    expect(accessPage).toEqual({ total: access.length, entries: newestFirst(access) });
    expect(appPage).toEqual({ total: app.length, entries: newestFirst(app) });
  });

  it('aggregates the request log per UTC day and model as the records say', async () => {
    const rows = await store().requests.aggregate({ ...everything, groupBy: 'day' });
    expect(sortBuckets(rows)).toEqual(expectedDailyUsage(requests));
  });

  it('sums requests, errors, tokens and cost per client name and version as the records say', async () => {
    expect(sortClients(await store().requests.clientUsage(everything))).toEqual(expectedClients(requests));
    const later = { ...everything, from: CUTOFF };
    expect(sortClients(await store().requests.clientUsage({ ...later, model: 'contract-b' }))).toEqual(
      expectedClients(kept(requests).filter((r) => r.model === 'contract-b')),
    );
    expect(await store().requests.clientUsage({ ...everything, userId: KEY })).toEqual([]);
  });

  it('counts failed requests per error type, client and status code as the records say', async () => {
    const rows = await store().requests.errorCounts(everything);
    expect(sortErrors(rows)).toEqual(expectedErrors(requests));
    expect(rows.map((row) => row.errorType)).toContain('rate_limit_error');
    expect(sortErrors(await store().requests.errorCounts({ ...everything, from: CUTOFF }))).toEqual(
      expectedErrors(kept(requests)),
    );
  });

  it('sums what the limits counted per key, user and day: admitted requests, tokens of those that ended before', async () => {
    // From a day before the cutoff to an instant inside the cutoff's day, after its 09:00 rows.
    const since = new Date(CUTOFF.getTime() - DAY);
    const before = new Date(CUTOFF.getTime() + 9 * 3_600_000 + 123 + 25);
    const inRange = requests.filter((r) => r.createdAt >= since && r.createdAt < before);
    const expected = new Map<number, { requests: number; weightedTokens: number }>();
    for (const r of inRange) {
      const day = Math.floor(r.createdAt.getTime() / DAY);
      const sums = expected.get(day) ?? { requests: 0, weightedTokens: 0 };
      if (!r.uncounted) sums.requests += 1;
      if (r.createdAt.getTime() + r.latencyMs < before.getTime()) sums.weightedTokens += r.weightedTokens;
      expected.set(day, sums);
    }
    // The 09:00 row of the cutoff's day started before `before` but ended after it.
    expect(inRange.some((r) => r.createdAt.getTime() + r.latencyMs >= before.getTime())).toBe(true);
    expect(inRange.some((r) => r.uncounted)).toBe(true);
    const rows = await store().requests.countedUsage({ since, before });
    expect([...rows].sort((a, b) => a.day - b.day)).toEqual(
      [...expected.entries()]
        .sort(([a], [b]) => a - b)
        .map(([day, sums]) => ({ apiKeyId: KEY, userId: USER, day, ...sums })),
    );
  });

  it("reads one key's or one user's cost, cache and reasoning tokens since an instant, in one query", async () => {
    const since = CUTOFF;
    const mine = kept(requests);
    const expected = {
      costUsd: mine.reduce((sum, r) => sum + (r.costUsd ?? 0), 0),
      cacheReadTokens: mine.reduce((sum, r) => sum + r.cachedTokens, 0),
      cacheWriteTokens: mine.reduce((sum, r) => sum + r.cacheWriteTokens, 0),
      reasoningTokens: mine.reduce((sum, r) => sum + r.reasoningTokens, 0),
    };
    for (const usage of [
      await store().requests.usageSince({ apiKeyId: KEY, since }),
      await store().requests.usageSince({ userId: USER, since }),
    ]) {
      expect(usage).toEqual({ ...expected, costUsd: expect.closeTo(expected.costUsd, 9) });
      expect(usage.cacheReadTokens).toBeGreaterThan(0);
    }
    expect(await store().requests.usageSince({ apiKeyId: SERVER, since })).toEqual({
      costUsd: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    });
  });

  it('answers the same filtered questions: failures, errors, minimum level', async () => {
    const failed = await store().requests.search({ statusCode: 502, limit: 200 });
    expect(ids(failed.entries)).toEqual(ids(newestFirst(requests.filter((r) => r.statusCode === 502))));
    // A class of codes, and the requests analytics leaves out of its costs (unpriced).
    const serverSide = await store().requests.search({ statusCode: '5xx', limit: 200 });
    expect(serverSide.total).toBeGreaterThan(0);
    expect(ids(serverSide.entries)).toEqual(
      ids(newestFirst(requests.filter((r) => r.statusCode >= 500 && r.statusCode <= 599))),
    );
    const unpriced = await store().requests.search({ unpriced: true, limit: 200 });
    expect(unpriced.total).toBeGreaterThan(0);
    expect(ids(unpriced.entries)).toEqual(ids(newestFirst(requests.filter((r) => r.costUsd === null))));
    const priced = await store().requests.search({ unpriced: false, statusCode: '5xx', limit: 200 });
    expect(ids(priced.entries)).toEqual(
      ids(newestFirst(requests.filter((r) => r.costUsd !== null && r.statusCode >= 500))),
    );
    const codexFailures = await store().requests.search({ clientName: 'codex', errorType: 'api_error' });
    expect(codexFailures.total).toBeGreaterThan(0);
    expect(ids(codexFailures.entries)).toEqual(
      ids(newestFirst(requests.filter((r) => r.clientName === 'codex' && r.errorType === 'api_error'))),
    );
    const toolErrors = await store().mcpCalls.list({ status: 'error', limit: 200 });
    expect(ids(toolErrors.entries)).toEqual(ids(newestFirst(mcpCalls.filter((r) => r.status === 'error'))));
    const serverErrors = await store().access.search({ statusCode: 500, port: 3000, limit: 200 });
    expect(ids(serverErrors.entries)).toEqual(
      ids(newestFirst(access.filter((r) => r.statusCode === 500 && r.port === 3000))),
    );
    const consoleFailures = await store().access.search({ statusCode: '5xx', source: 'console', limit: 200 });
    expect(consoleFailures.total).toBeGreaterThan(0);
    expect(ids(consoleFailures.entries)).toEqual(
      ids(newestFirst(access.filter((r) => r.statusCode >= 500 && r.source === 'console'))),
    );
    const warnings = await store().app.search({ level: 'WARN', limit: 200 });
    expect(ids(warnings.entries)).toEqual(ids(newestFirst(app.filter((r) => r.level !== 'INFO'))));
  });

  it('purgeBefore removes exactly the rows older than the cutoff from every log', async () => {
    await store().purgeBefore(CUTOFF);
    const [requestPage, mcpPage, accessPage, appPage] = await Promise.all([
      store().requests.search({ limit: 200 }),
      store().mcpCalls.list({ limit: 200 }),
      store().access.search({ limit: 200 }),
      store().app.search({ limit: 200 }),
    ]);
    expect(ids(requestPage.entries)).toEqual(ids(newestFirst(kept(requests))));
    expect(ids(mcpPage.entries)).toEqual(ids(newestFirst(kept(mcpCalls))));
    expect(ids(accessPage.entries)).toEqual(ids(newestFirst(kept(access))));
    expect(ids(appPage.entries)).toEqual(ids(newestFirst(kept(app))));
    const usage = await store().requests.aggregate({ ...everything, groupBy: 'day' });
    expect(sortBuckets(usage)).toEqual(expectedDailyUsage(kept(requests)));
  });

  it('purging again removes nothing more', async () => {
    await store().purgeBefore(CUTOFF);
    expect((await store().requests.search({ limit: 200 })).total).toBe(kept(requests).length);
    expect((await store().app.search({ limit: 200 })).total).toBe(kept(app).length);
  });
});
