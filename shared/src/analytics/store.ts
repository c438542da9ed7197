import type { Db } from '../db/types';
import { createClickHouseRequestLogStore } from '../ledger/clickhouse-store';
import type { RequestLogStore } from '../ledger/port';
import { createPostgresRequestLogStore } from '../ledger/postgres-store';
import { createClickHouseMcpLogStore } from '../mcp/log/clickhouse-store';
import { createPostgresMcpLogStore } from '../mcp/log/postgres-store';
import type { McpLogStore } from '../mcp/ports';
import { type ClickHouseLogTable, purgeClickHouseLogs, type TablePurge } from '../retention/clickhouse';
import { type PostgresLogTable, type PostgresPurgeOptions, purgePostgresLogs } from '../retention/postgres';
import { createClickHouseAccessLogStore } from '../server-logs/clickhouse-access';
import { createClickHouseAppLogStore } from '../server-logs/clickhouse-app';
import { createPostgresAccessLogStore, createPostgresAppLogStore } from '../server-logs/postgres-store';
import type { AccessLogStore, AppLogStore } from '../server-logs/records';
import type { AnalyticsStoreOptions, ClickHouseTarget } from './target';

/**
 * Everything the analytics side stores, behind one port with two adapters (ClickHouse,
 * Postgres) that pass one contract suite (tests/integration/analytics-store.test.ts). The
 * request ledger, the MCP call log, the access log and the app log each keep their own port,
 * so a route or a writer depends only on the log it uses.
 */
export interface AnalyticsStore<Purged = unknown> {
  readonly backend: 'clickhouse' | 'postgres';
  readonly requests: RequestLogStore;
  readonly mcpCalls: McpLogStore;
  readonly access: AccessLogStore;
  readonly app: AppLogStore;
  /** Removes every log row created before `cutoff` (retention); returns the rows or parts removed. */
  purgeBefore(cutoff: Date): Promise<Purged>;
}

/** Rows deleted per table; purges run in bounded batches (options). */
export function createPostgresAnalyticsStore(
  db: Db,
  purge: PostgresPurgeOptions = {},
): AnalyticsStore<Record<PostgresLogTable, number>> {
  return {
    backend: 'postgres',
    requests: createPostgresRequestLogStore(db),
    mcpCalls: createPostgresMcpLogStore(db),
    access: createPostgresAccessLogStore(db),
    app: createPostgresAppLogStore(db),
    purgeBefore: (cutoff) => purgePostgresLogs(db, cutoff, purge),
  };
}

/** Whole day partitions dropped per table (see retention/clickhouse.ts). */
export function createClickHouseAnalyticsStore(
  target: ClickHouseTarget,
): AnalyticsStore<Record<ClickHouseLogTable, TablePurge>> {
  const { client, database, ensureDatabase } = target;
  const options = { database, ensureDatabase };
  return {
    backend: 'clickhouse',
    requests: createClickHouseRequestLogStore(client, options),
    mcpCalls: createClickHouseMcpLogStore(client, options),
    access: createClickHouseAccessLogStore(client, options),
    app: createClickHouseAppLogStore(client, options),
    async purgeBefore(cutoff) {
      // 18.16 refuses every request naming a database that does not exist yet.
      await ensureDatabase?.();
      return purgeClickHouseLogs(client, database, cutoff);
    },
  };
}

/** ClickHouse when configured, otherwise Postgres (SPEC: the analytics store is optional). */
export function createAnalyticsStore(options: AnalyticsStoreOptions): AnalyticsStore {
  return options.clickhouse
    ? createClickHouseAnalyticsStore(options.clickhouse)
    : createPostgresAnalyticsStore(options.db);
}
