import type { ClickHouseClient } from '@clickhouse/client-web';
import { type ChSql, chIdent, chSql } from '../logs/analytics/clickhouse-sql';
import { CLICKHOUSE_ROW_FORMAT } from '../stores/clickhouse';

/**
 * The ClickHouse log tables retention covers (same names as their stores': request log, MCP
 * call log, access and app logs). Every one is partitioned by toYYYYMMDD(created_at), except
 * request_logs and mcp_logs created before day partitions, which keep toYYYYMM.
 */
export const CLICKHOUSE_LOG_TABLES = ['request_logs', 'mcp_logs', 'access_logs', 'app_logs'] as const;

export type ClickHouseLogTable = (typeof CLICKHOUSE_LOG_TABLES)[number];

export interface TablePurge {
  /** Partitions dropped whole (every row older than the cutoff). */
  dropped: string[];
  /** Whether an ALTER TABLE … DELETE was issued for the rows of partitions straddling the cutoff. */
  deleting: boolean;
}

interface PartitionRow {
  partition: string;
  /** Unix seconds of the oldest and newest created_at in the partition's active parts. */
  min_s: string | number;
  max_s: string | number;
}

/**
 * Retention without TTL (ClickHouse 18.16 has no TTL clause; it came in 19.6): whole day
 * partitions older than the cutoff are dropped, which is instant and frees the disk at once;
 * rows older than the cutoff in a partition that also holds newer ones (the cutoff's own day,
 * or a month of a table created with monthly partitions) go with ALTER TABLE … DELETE, a
 * mutation that 18.16 applies by rewriting the parts in the background.
 *
 * Safe to run from several places at once: DROP PARTITION of a partition already gone is a
 * no-op, and no DELETE is issued while an earlier one on the table is still running.
 */
export async function purgeClickHouseTable(
  client: ClickHouseClient,
  database: string,
  table: string,
  cutoff: Date,
  /** The row's time column (the audit mirror's is `timestamp`). */
  timeColumn = 'created_at',
): Promise<TablePurge> {
  const select = async <T>(query: ChSql): Promise<T[]> =>
    (await client.query({ query: query.sql, format: CLICKHOUSE_ROW_FORMAT })).json<T>();
  const [described] = await select<{ partition_key: string }>(
    chSql`SELECT partition_key FROM system.tables WHERE database = ${database} AND name = ${table}`,
  );
  if (!described) return { dropped: [], deleting: false }; // not created yet: nothing to keep
  // The parts' min_time/max_time come from the minmax index of the partition key's columns, so
  // they are the created_at range only when the key is computed from created_at.
  const byCreatedAt = new RegExp(`\\b${timeColumn}\\b`).test(described.partition_key);
  const cutoffS = Math.floor(cutoff.getTime() / 1000);
  const partitions = await select<PartitionRow>(
    chSql`SELECT partition, min(toUInt32(min_time)) AS min_s, max(toUInt32(max_time)) AS max_s
      FROM system.parts WHERE database = ${database} AND table = ${table} AND active
      GROUP BY partition`,
  );
  const qualified = chIdent(database, table);
  const dropped: string[] = [];
  let straddles = false;
  for (const part of partitions) {
    const whole = byCreatedAt && /^\d+$/.test(part.partition) && Number(part.max_s) < cutoffS;
    if (whole) {
      await client.command({
        query: chSql`ALTER TABLE ${qualified} DROP PARTITION ${Number(part.partition)}`.sql,
      });
      dropped.push(part.partition);
    } else if (!byCreatedAt || Number(part.min_s) < cutoffS) {
      straddles = true;
    }
  }
  const deleting =
    straddles && (await deleteOlderRows(client, select, { qualified, database, table, timeColumn }, cutoff));
  return { dropped, deleting };
}

/** Issues the DELETE when old rows remain and no earlier DELETE on the table is still running. */
async function deleteOlderRows(
  client: ClickHouseClient,
  select: <T>(query: ChSql) => Promise<T[]>,
  target: { qualified: ChSql; database: string; table: string; timeColumn: string },
  cutoff: Date,
): Promise<boolean> {
  const { qualified, database, table } = target;
  const time = chIdent(target.timeColumn);
  const [old] = await select<{ n: string }>(
    chSql`SELECT count() AS n FROM ${qualified} WHERE ${time} < ${cutoff}`,
  );
  if (Number(old?.n ?? 0) === 0) return false;
  const [running] = await select<{ n: string }>(
    chSql`SELECT count() AS n FROM system.mutations
      WHERE database = ${database} AND table = ${table} AND is_done = 0`,
  );
  if (Number(running?.n ?? 0) > 0) return false;
  await client.command({ query: chSql`ALTER TABLE ${qualified} DELETE WHERE ${time} < ${cutoff}`.sql });
  return true;
}

/** Every log table of the database; a table that does not exist yet is skipped. */
export async function purgeClickHouseLogs(
  client: ClickHouseClient,
  database: string,
  cutoff: Date,
): Promise<Record<ClickHouseLogTable, TablePurge>> {
  const result = {} as Record<ClickHouseLogTable, TablePurge>;
  for (const table of CLICKHOUSE_LOG_TABLES) {
    result[table] = await purgeClickHouseTable(client, database, table, cutoff);
  }
  return result;
}
