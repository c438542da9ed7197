import { sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { accessLogs, appLogs, mcpLogs, requestLogs } from '../db/schema';
import type { QueryDb } from '../db/types';

/** The Postgres log tables retention covers (audit_log has audit_retention_days of its own). */
export const POSTGRES_LOG_TABLES = {
  request_logs: requestLogs,
  mcp_logs: mcpLogs,
  access_logs: accessLogs,
  app_logs: appLogs,
} satisfies Record<string, PgTable>;

export type PostgresLogTable = keyof typeof POSTGRES_LOG_TABLES;

export interface PostgresPurgeOptions {
  /** Rows per DELETE: each statement holds its row locks only this long. */
  batchSize?: number;
  /** DELETEs per table per run; a larger backlog is left for the next run. */
  maxBatches?: number;
}

const DEFAULT_BATCH = 10_000;
const DEFAULT_MAX_BATCHES = 100;

/**
 * One bounded batch: the oldest `limit` expired rows' ids, locked with SKIP LOCKED so a second
 * runner (console timer and gateway cron at once) takes other rows instead of waiting. The
 * count comes back as one row, whatever the driver.
 */
async function deleteBatch(db: QueryDb, table: PgTable, cutoff: Date, limit: number): Promise<number> {
  const result = await db.execute<{ n: number }>(sql`WITH gone AS (
    DELETE FROM ${table} WHERE id IN (
      SELECT id FROM ${table} WHERE created_at < ${cutoff.toISOString()}::timestamptz
      LIMIT ${limit} FOR UPDATE SKIP LOCKED
    ) RETURNING 1
  ) SELECT count(*)::int AS n FROM gone`);
  const rows = (result as { rows?: { n: number }[] }).rows ?? (result as unknown as { n: number }[]);
  return Number(rows[0]?.n ?? 0);
}

/**
 * Deletes the rows created before `cutoff` from every log table, in batches of `batchSize`
 * (a periodic delete never holds a long lock or a huge transaction). Each statement stands
 * alone, so it works over the gateway's HTTP driver and the console's pool alike.
 */
export async function purgePostgresLogs(
  db: QueryDb,
  cutoff: Date,
  options: PostgresPurgeOptions = {},
): Promise<Record<PostgresLogTable, number>> {
  const deleted = {} as Record<PostgresLogTable, number>;
  for (const [name, table] of Object.entries(POSTGRES_LOG_TABLES) as [PostgresLogTable, PgTable][]) {
    deleted[name] = await purgePostgresTable(db, table, cutoff, options);
  }
  return deleted;
}

/** One table's rows created before `cutoff`, in bounded batches; how many went. */
export async function purgePostgresTable(
  db: QueryDb,
  table: PgTable,
  cutoff: Date,
  options: PostgresPurgeOptions = {},
): Promise<number> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  const maxBatches = options.maxBatches ?? DEFAULT_MAX_BATCHES;
  let total = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const n = await deleteBatch(db, table, cutoff, batchSize);
    total += n;
    if (n < batchSize) break;
  }
  return total;
}
