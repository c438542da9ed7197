import type { QueryDb } from '../../db/types';
import type { McpLogStore } from '../../mcp/ports';
import { type ClickHouseLogTable, purgeClickHouseLogs, type TablePurge } from '../../retention/clickhouse';
import {
  type PostgresLogTable,
  type PostgresPurgeOptions,
  purgePostgresLogs,
} from '../../retention/postgres';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../../stores/clickhouse';
import { createClickHouseMcpLogStore } from '../mcp/clickhouse-store';
import { createPostgresMcpLogSpill, createPostgresMcpLogStore } from '../mcp/postgres-store';
import { maintainRequestRollups } from '../requests/clickhouse-rollup';
import { createClickHouseRequestLogStore } from '../requests/clickhouse-store';
import type { RequestLogStore } from '../requests/port';
import { createPostgresRequestLogSpill, createPostgresRequestLogStore } from '../requests/postgres-store';
import { createClickHouseAccessLogStore } from '../server/clickhouse-access';
import { createClickHouseAppLogStore } from '../server/clickhouse-app';
import { createPostgresAccessLogStore, createPostgresAppLogStore } from '../server/postgres-store';
import type { AccessLogStore, AppLogStore } from '../server/records';
import { clickhouseBreaker, drainSpill, spillingInsert } from './log-spill';
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
  /**
   * Moves request and MCP log rows that waited in Postgres during a ClickHouse outage to
   * ClickHouse; returns how many (always 0 on Postgres).
   */
  drainSpill(): Promise<number>;
}

/** Rows deleted per table; purges run in bounded batches (options). */
export function createPostgresAnalyticsStore(
  db: QueryDb,
  purge: PostgresPurgeOptions = {},
): AnalyticsStore<Record<PostgresLogTable, number>> {
  return {
    backend: 'postgres',
    requests: createPostgresRequestLogStore(db),
    mcpCalls: createPostgresMcpLogStore(db),
    access: createPostgresAccessLogStore(db),
    app: createPostgresAppLogStore(db),
    purgeBefore: (cutoff) => purgePostgresLogs(db, cutoff, purge),
    drainSpill: async () => 0,
  };
}

/**
 * Whole day partitions dropped per table (see retention/clickhouse.ts). Request and MCP log
 * rows that ClickHouse cannot take go to their Postgres tables (log-spill.ts) until
 * drainSpill() moves them over.
 */
export function createClickHouseAnalyticsStore(
  target: ClickHouseTarget,
  db: QueryDb,
  onClickHouseChange?: (open: boolean, error?: unknown) => void,
): AnalyticsStore<Record<ClickHouseLogTable, TablePurge>> {
  const { client, database, ensureDatabase } = target;
  const timeoutMs = target.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  // A query runs no longer in ClickHouse than its caller waits for it (see chQuery).
  const options = { database, ensureDatabase, timeoutMs };
  const breaker = clickhouseBreaker(() => client.ping(), timeoutMs, onClickHouseChange);
  const requests = createClickHouseRequestLogStore(client, options);
  const mcpCalls = createClickHouseMcpLogStore(client, options);
  const spills = { requests: createPostgresRequestLogSpill(db), mcpCalls: createPostgresMcpLogSpill(db) };
  return {
    backend: 'clickhouse',
    requests: { ...requests, insert: spillingInsert(requests, spills.requests, breaker) },
    mcpCalls: { ...mcpCalls, insert: spillingInsert(mcpCalls, spills.mcpCalls, breaker) },
    access: createClickHouseAccessLogStore(client, options),
    app: createClickHouseAppLogStore(client, options),
    async purgeBefore(cutoff) {
      // 18.16 refuses every request naming a database that does not exist yet.
      await ensureDatabase?.();
      const purged = await purgeClickHouseLogs(client, database, cutoff);
      // The request log's rollup follows: its old days go, days that differ are rebuilt.
      await maintainRequestRollups(client, database, cutoff, new Date());
      return purged;
    },
    async drainSpill() {
      return (await drainSpill(spills.requests, requests)) + (await drainSpill(spills.mcpCalls, mcpCalls));
    },
  };
}

/** ClickHouse when configured, otherwise Postgres (ClickHouse is optional: Postgres is the fallback). */
export function createAnalyticsStore(options: AnalyticsStoreOptions): AnalyticsStore {
  return options.clickhouse
    ? createClickHouseAnalyticsStore(options.clickhouse, options.db, options.onClickHouseChange)
    : createPostgresAnalyticsStore(options.db);
}
