// Issue 7 › stores: the AnalyticsStore port (shared/src/logs/analytics/store.ts) and its two adapters,
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

function requestRecord(at: Date, i: number): RequestLogRecord {
  const priced = i % 3 !== 0;
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
    statusCode: i % 5 === 0 ? 502 : 200,
    errorType: null,
    errorMessage: null,
    promptTokens: 100 + i,
    completionTokens: 10 * i,
    cachedTokens: 0,
    totalTokens: 100 + 11 * i,
    weightedTokens: 100 + 11 * i,
    costUsd: priced ? (i + 1) / 1000 : null,
    unpriced: !priced,
    latencyMs: 20 + i,
    upstreamLatencyMs: 10 + i,
    cacheHit: false,
    attempts: 1,
    clientAborted: false,
    guardrail: null,
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
      costUsd: 0,
      unpricedRequests: 0,
      latencyMsSum: 0,
    };
    group.requests += 1;
    group.promptTokens += row.promptTokens;
    group.completionTokens += row.completionTokens;
    group.totalTokens += row.totalTokens;
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

const adapters = {} as Record<'postgres' | 'clickhouse', AnalyticsStore>;
let closeClickHouse: () => Promise<void> = async () => {};

beforeAll(async () => {
  const sidecar = inject('sidecarEnv');
  configureNeon({ httpEndpoint: sidecar.NEON_LOCAL_HTTP, wsProxy: sidecar.NEON_LOCAL_WS_PROXY });
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

  it('answers the same filtered questions: failures, errors, minimum level', async () => {
    const failed = await store().requests.search({ statusCode: 502, limit: 200 });
    expect(ids(failed.entries)).toEqual(ids(newestFirst(requests.filter((r) => r.statusCode === 502))));
    const toolErrors = await store().mcpCalls.list({ status: 'error', limit: 200 });
    expect(ids(toolErrors.entries)).toEqual(ids(newestFirst(mcpCalls.filter((r) => r.status === 'error'))));
    const serverErrors = await store().access.search({ statusCode: 500, port: 3000, limit: 200 });
    expect(ids(serverErrors.entries)).toEqual(
      ids(newestFirst(access.filter((r) => r.statusCode === 500 && r.port === 3000))),
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
