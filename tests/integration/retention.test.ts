// The data_retention_days setting: retention removes old rows — Postgres by a periodic bounded
// delete, ClickHouse (18.16, no TTL) by dropping whole day partitions and deleting the rest of a
// partition that straddles the cutoff. Rows are written through the real stores (request log, MCP
// call log) and the real drivers.

import { randomUUID } from 'node:crypto';
import type { ClickHouseClient } from '@clickhouse/client-web';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createPostgresPool, type PostgresPool } from '../../console-server/src/stores/postgres';
import { RETENTION_CRON } from '../../gateway-worker/src/schedules';
import worker from '../../gateway-worker/src/worker';
import { writeSettings } from '../../shared/src/db/repos/settings-repo';
import { accessLogs, appLogs, auditLog } from '../../shared/src/db/schema';
import type { QueryDb } from '../../shared/src/db/types';
import { createClickHouseAuditMirror } from '../../shared/src/logs/analytics/audit-mirror';
import { type ChSql, chIdent, chSql } from '../../shared/src/logs/analytics/clickhouse-sql';
import { createClickHouseMcpLogStore, createPostgresMcpLogStore } from '../../shared/src/logs/mcp';
import {
  createClickHouseRequestLogStore,
  createPostgresRequestLogStore,
  type RequestLogRecord,
  type RequestLogStore,
} from '../../shared/src/logs/requests';
import { requestLogSchema } from '../../shared/src/logs/requests/log-columns';
import type { McpLogRecord } from '../../shared/src/mcp/ports';
import { purgeClickHouseTable } from '../../shared/src/retention/clickhouse';
import { runRetention } from '../../shared/src/retention/run';
import {
  CLICKHOUSE_ROW_FORMAT,
  createClickHouse,
  ensureClickHouseDatabase,
} from '../../shared/src/stores/clickhouse';
import { configureNeon, createHttpDb } from '../../shared/src/stores/neon';
import { CLICKHOUSE_URL } from '../helpers/env';
import { requestLogRecord } from '../helpers/request-log-record';
import { appEnv, freshDatabase } from '../helpers/stores';

const CH_DAILY = 'sluice_r_retention';
const CH_MONTHLY = 'sluice_r_retention_monthly';
/** The job's clock: 30 days (the default) before it is the cutoff, 2025-05-16 12:00:00 UTC. */
const NOW = new Date('2025-06-15T12:00:00.500Z');
const CUTOFF = Date.UTC(2025, 4, 16, 12);
const at = (iso: string) => new Date(iso);

let ch: ClickHouseClient;
let pooled: PostgresPool;
let db: QueryDb;
let databaseUrl: string;

function requestLog(createdAt: Date): RequestLogRecord {
  return requestLogRecord({
    createdAt,
    model: 'retention-model',
    promptTokens: 1,
    completionTokens: 1,
    totalTokens: 2,
    weightedTokens: 2,
    costUsd: null,
    unpriced: true,
    latencyMs: 1,
  });
}

function mcpLog(createdAt: Date): McpLogRecord {
  return {
    id: randomUUID(),
    createdAt,
    userId: null,
    apiKeyId: null,
    serverId: randomUUID(),
    serverName: 'retention',
    toolName: 'tool',
    status: 'success',
    durationMs: 1,
    error: null,
  };
}

/** Instants of every row inserted below, relative to the 2025-05-16 12:00:00 cutoff. */
const OLD = ['2025-05-10T08:00:00Z', '2025-05-14T23:59:59Z', '2025-05-16T11:59:59.999Z'];
const KEPT = ['2025-05-16T12:00:00Z', '2025-05-16T18:00:00Z', '2025-06-01T00:00:00Z', '2025-06-15T12:00:00Z'];

async function chSelect<T>(query: ChSql): Promise<T[]> {
  return (await ch.query({ query: query.sql, format: CLICKHOUSE_ROW_FORMAT })).json<T>();
}

async function activePartitions(database: string, table: string): Promise<string[]> {
  const rows = await chSelect<{ partition: string }>(
    chSql`SELECT DISTINCT partition FROM system.parts
      WHERE database = ${database} AND table = ${table} AND active ORDER BY partition`,
  );
  return rows.map((r) => r.partition);
}

/** The instants a request log store still holds, oldest first. */
async function instants(store: RequestLogStore): Promise<string[]> {
  return (await store.list({ limit: 200 })).map((r) => r.createdAt.toISOString()).reverse();
}

const iso = (values: string[]) => values.map((v) => new Date(v).toISOString());

beforeAll(async () => {
  const sidecar = inject('sidecarEnv');
  configureNeon({ httpEndpoint: sidecar.NEON_LOCAL_HTTP });
  databaseUrl = await freshDatabase('sluice_r_retention');
  pooled = createPostgresPool(databaseUrl, 2);
  db = pooled.db;
  ch = createClickHouse({ url: CLICKHOUSE_URL, database: 'default', requestTimeoutMs: 10_000 });
  for (const database of [CH_DAILY, CH_MONTHLY]) {
    await ch.command({ query: chSql`DROP DATABASE IF EXISTS ${chIdent(database)}`.sql });
    await ensureClickHouseDatabase({ url: CLICKHOUSE_URL, database });
  }
});

afterAll(async () => {
  await pooled?.pool.end();
  await ch?.close();
});

describe('retention in Postgres', () => {
  it('deletes, in bounded batches, the log rows older than data_retention_days and keeps the rest', async () => {
    const requests = createPostgresRequestLogStore(db);
    const mcp = createPostgresMcpLogStore(db);
    const all = [...OLD, ...KEPT].map(at);
    await requests.insert(all.map(requestLog));
    await mcp.insert(all.map(mcpLog));
    await db.insert(accessLogs).values(
      all.map((createdAt) => ({
        createdAt,
        port: 3000,
        method: 'GET',
        path: '/x',
        statusCode: 200,
        latencyMs: 1,
      })),
    );
    await db.insert(appLogs).values(
      all.map((createdAt) => ({
        createdAt,
        level: 30,
        source: 'gateway' as const,
        target: 't',
        message: 'm',
      })),
    );

    // Two runs at once (console timer and gateway cron), two rows per DELETE.
    const [first, second] = await Promise.all([
      runRetention({ db }, NOW, { batchSize: 2 }),
      runRetention({ db: createHttpDb(databaseUrl) }, NOW, { batchSize: 2 }),
    ]);
    expect(first.days).toBe(30);
    expect(first.cutoff.getTime()).toBe(CUTOFF);
    for (const table of ['request_logs', 'mcp_logs', 'access_logs', 'app_logs'] as const) {
      expect(first.postgres[table] + second.postgres[table], table).toBe(OLD.length);
    }
    expect(await instants(requests)).toEqual(iso(KEPT));
    const mcpLeft = (await mcp.list({ limit: 200 })).entries.map((r) => r.createdAt.toISOString());
    expect(mcpLeft.reverse()).toEqual(iso(KEPT));
    const accessLeft = await db.select({ createdAt: accessLogs.createdAt }).from(accessLogs);
    expect(accessLeft.every((r) => r.createdAt.getTime() >= CUTOFF)).toBe(true);
    expect(accessLeft).toHaveLength(KEPT.length);
    expect(await db.$count(appLogs)).toBe(KEPT.length);
    // Nothing left to do: a second run deletes nothing.
    const again = await runRetention({ db }, NOW);
    expect(Object.values(again.postgres)).toEqual([0, 0, 0, 0]);
  });

  it('follows a change of the setting at the next run', async () => {
    await writeSettings(db, [{ key: 'data_retention_days', value: 10 }], null);
    try {
      const result = await runRetention({ db }, NOW);
      expect(result.days).toBe(10);
      expect(result.cutoff.toISOString()).toBe('2025-06-05T12:00:00.000Z');
      // Of the kept rows, those of 2025-05-16 and 2025-06-01 are now past the retention.
      expect(result.postgres.request_logs).toBe(3);
      expect(await instants(createPostgresRequestLogStore(db))).toEqual(iso(['2025-06-15T12:00:00Z']));
    } finally {
      await writeSettings(db, [{ key: 'data_retention_days', value: 30 }], null);
    }
  });
});

describe('audit records (audit_retention_days)', () => {
  it('go from Postgres and from the ClickHouse copy once older than the setting; the rest stay', async () => {
    const all = [...OLD, ...KEPT].map(at);
    const rows = await db
      .insert(auditLog)
      .values(all.map((createdAt) => ({ createdAt, action: 'retention.check' })))
      .returning();
    const mirror = createClickHouseAuditMirror(ch, { database: CH_DAILY });
    await mirror.write(rows);
    await writeSettings(db, [{ key: 'audit_retention_days', value: 30 }], null);
    try {
      const result = await runRetention({ db, clickhouse: { client: ch, database: CH_DAILY } }, NOW);
      expect(result.audit).toMatchObject({ days: 30, postgres: OLD.length });
      expect(result.audit.cutoff.getTime()).toBe(CUTOFF);
      const left = await db
        .select({ createdAt: auditLog.createdAt })
        .from(auditLog)
        .where(eq(auditLog.action, 'retention.check'));
      expect(left.map((r) => r.createdAt.toISOString()).sort()).toEqual(iso(KEPT));
      // The straddling month's old rows go by a mutation ClickHouse applies in the background.
      const copy = () =>
        chSelect<{ n: string }>(chSql`SELECT count() AS n FROM ${chIdent(CH_DAILY, 'audit_log')} FINAL`);
      await vi.waitFor(async () => expect(Number((await copy())[0]?.n)).toBe(KEPT.length), {
        timeout: 20_000,
      });
    } finally {
      await writeSettings(db, [{ key: 'audit_retention_days', value: 365 }], null);
    }
  });
});

describe('retention in ClickHouse (18.16: no TTL)', () => {
  it('drops the day partitions older than the cutoff and deletes the old rows of the straddling day', async () => {
    const requests = createClickHouseRequestLogStore(ch, { database: CH_DAILY });
    const mcp = createClickHouseMcpLogStore(ch, { database: CH_DAILY });
    const all = [...OLD, ...KEPT].map(at);
    await requests.insert(all.map(requestLog));
    await mcp.insert(all.map(mcpLog));
    expect(await activePartitions(CH_DAILY, 'request_logs')).toEqual([
      '20250510',
      '20250514',
      '20250516',
      '20250601',
      '20250615',
    ]);

    const [result, concurrent] = await Promise.all([
      runRetention({ db, clickhouse: { client: ch, database: CH_DAILY } }, NOW),
      runRetention({ db, clickhouse: { client: ch, database: CH_DAILY } }, NOW),
    ]);
    // Each partition is dropped by one runner or both (the second DROP is a no-op).
    const dropped = (table: 'request_logs' | 'mcp_logs') =>
      [...new Set([result, concurrent].flatMap((r) => r.clickhouse?.[table].dropped ?? []))].sort();
    expect(dropped('request_logs')).toEqual(['20250510', '20250514']);
    expect(dropped('mcp_logs')).toEqual(['20250510', '20250514']);
    // The access and app log tables were never created in this database: skipped.
    expect(result.clickhouse?.access_logs).toEqual({ dropped: [], deleting: false });
    // Whole partitions are gone from system.parts; the cutoff's own day stays, with only its
    // rows at or after the cutoff once the DELETE mutation (issued by one runner) is done.
    for (const table of ['request_logs', 'mcp_logs']) {
      expect(await activePartitions(CH_DAILY, table)).toEqual(['20250516', '20250601', '20250615']);
    }
    expect(
      [result, concurrent].filter((r) => r.clickhouse?.request_logs.deleting).length,
    ).toBeGreaterThanOrEqual(1);
    await vi.waitFor(async () => expect(await instants(requests)).toEqual(iso(KEPT)), {
      timeout: 10_000,
      interval: 100,
    });
    await vi.waitFor(
      async () =>
        expect(
          (await mcp.list({ limit: 200 })).entries.map((r) => r.createdAt.toISOString()).reverse(),
        ).toEqual(iso(KEPT)),
      { timeout: 10_000, interval: 100 },
    );
    // Nothing older is left: the next run drops and deletes nothing.
    const again = await purgeClickHouseTable(ch, CH_DAILY, 'request_logs', new Date(CUTOFF));
    expect(again).toEqual({ dropped: [], deleting: false });
  });

  it('keeps a table created with monthly partitions working: old months dropped, the rest deleted', async () => {
    // The DDL before day partitions: CREATE TABLE IF NOT EXISTS leaves this table as it is.
    const monthly = requestLogSchema
      .ddl(CH_MONTHLY)
      .sql.replace('toYYYYMMDD(created_at)', 'toYYYYMM(created_at)');
    await ch.command({ query: monthly });
    const requests = createClickHouseRequestLogStore(ch, { database: CH_MONTHLY });
    const old = ['2025-03-31T23:59:59Z', ...OLD];
    await requests.insert([...old, ...KEPT].map((v) => requestLog(at(v))));
    expect(await activePartitions(CH_MONTHLY, 'request_logs')).toEqual(['202503', '202505', '202506']);

    const result = await purgeClickHouseTable(ch, CH_MONTHLY, 'request_logs', new Date(CUTOFF));
    expect(result).toEqual({ dropped: ['202503'], deleting: true });
    await vi.waitFor(async () => expect(await instants(requests)).toEqual(iso(KEPT)), {
      timeout: 10_000,
      interval: 100,
    });
    expect(await activePartitions(CH_MONTHLY, 'request_logs')).toEqual(['202505', '202506']);
  });

  it('uses the retention setting for the cutoff', async () => {
    const requests = createClickHouseRequestLogStore(ch, { database: CH_DAILY });
    await writeSettings(db, [{ key: 'data_retention_days', value: 7 }], null);
    try {
      const result = await runRetention({ db, clickhouse: { client: ch, database: CH_DAILY } }, NOW);
      expect(result.cutoff.toISOString()).toBe('2025-06-08T12:00:00.000Z');
      expect(result.clickhouse?.request_logs.dropped).toEqual(['20250516', '20250601']);
      expect(await instants(requests)).toEqual(iso(['2025-06-15T12:00:00Z']));
    } finally {
      await writeSettings(db, [{ key: 'data_retention_days', value: 30 }], null);
    }
  });
});

describe("the gateway's Cron Trigger", () => {
  it('runs retention on RETENTION_CRON, in Postgres and ClickHouse', async () => {
    const postgres = createPostgresRequestLogStore(db);
    const clickhouse = createClickHouseRequestLogStore(ch, { database: CH_DAILY });
    const rows = ['2025-05-01T00:00:00Z', '2025-06-10T00:00:00Z'].map((v) => requestLog(at(v)));
    await postgres.insert(rows);
    await clickhouse.insert(rows);
    expect(await activePartitions(CH_DAILY, 'request_logs')).toContain('20250501');
    const tasks: Promise<unknown>[] = [];
    worker.scheduled(
      { cron: RETENTION_CRON, scheduledTime: NOW.getTime() },
      appEnv(databaseUrl, { CLICKHOUSE_DATABASE: CH_DAILY }),
      { waitUntil: (task: Promise<unknown>) => tasks.push(task), passThroughOnException: () => {} } as never,
    );
    await Promise.all(tasks);
    expect(await instants(postgres)).toEqual(iso(['2025-06-10T00:00:00Z', '2025-06-15T12:00:00Z']));
    expect(await activePartitions(CH_DAILY, 'request_logs')).not.toContain('20250501');
    expect((await clickhouse.list({ limit: 200 })).map((r) => r.createdAt.toISOString())).not.toContain(
      '2025-05-01T00:00:00.000Z',
    );
  });
});
