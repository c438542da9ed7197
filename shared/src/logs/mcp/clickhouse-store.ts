import type { ClickHouseClient } from '@clickhouse/client-web';
import type { McpLogRecord, McpLogStore } from '../../mcp/ports';
import type { ChRow } from '../analytics/clickhouse-columns';
import { type ChSql, chIdent, chJoin, chSql } from '../analytics/clickhouse-sql';
import { type ClickHouseTableOptions, clickHouseLogTable } from '../analytics/clickhouse-table';
import type { SpillTarget } from '../analytics/log-spill';
import { checkMcpLogRecord, type McpLogQuery, mcpLogQuery } from './filter';
import { mcpLogSchema } from './log-columns';

/** WHERE for a checked query; milliseconds are compared on created_at_ms, never on DateTime. */
function whereOf(query: McpLogQuery): ChSql {
  const conditions = [
    query.userId === undefined ? null : chSql`user_id = ${query.userId.toLowerCase()}`,
    query.serverId === undefined ? null : chSql`server_id = ${query.serverId.toLowerCase()}`,
    query.toolName === undefined ? null : chSql`tool_name = ${query.toolName}`,
    query.status === undefined ? null : chSql`status = ${query.status}`,
    query.from === undefined ? null : chSql`created_at_ms >= ${Math.max(0, query.from.getTime())}`,
    query.to === undefined ? null : chSql`created_at_ms <= ${query.to.getTime()}`,
  ].filter((condition): condition is ChSql => condition !== null);
  return conditions.length === 0 ? chSql`` : chSql`WHERE ${chJoin(conditions, chSql` AND `)}`;
}

/** Always descending; the id breaks ties so paging is stable. */
function orderOf(query: McpLogQuery): ChSql {
  const first = query.sortBy === 'duration_ms' ? chIdent('duration_ms') : chIdent('created_at_ms');
  return chSql`ORDER BY ${first} DESC, id DESC`;
}

export type ClickHouseMcpLogStoreOptions = ClickHouseTableOptions;

/**
 * The MCP call log in ClickHouse. The table is created on first use (once; again after a failed
 * attempt). Every name is qualified with the database, so one client can serve several.
 */
export function createClickHouseMcpLogStore(
  client: ClickHouseClient,
  options: ClickHouseMcpLogStoreOptions,
): McpLogStore & SpillTarget<McpLogRecord> {
  const logs = clickHouseLogTable(client, options, mcpLogSchema);
  const columns = mcpLogSchema.selected;
  return {
    async insert(records) {
      await logs.insert(
        records.map((record) => {
          checkMcpLogRecord(record);
          return mcpLogSchema.toRow(record);
        }),
      );
    },
    existingIds: (ids) => logs.existingIds(ids),
    async list(filter) {
      const query = mcpLogQuery(filter);
      const where = whereOf(query);
      const [rows, [counted]] = await Promise.all([
        logs.select<ChRow>(chSql`SELECT ${columns} FROM ${logs.table} ${where}
          ${orderOf(query)} LIMIT ${query.offset}, ${query.limit}`),
        logs.select<{ total: string | number }>(chSql`SELECT count() AS total FROM ${logs.table} ${where}`),
      ]);
      return { total: Number(counted?.total ?? 0), entries: rows.map((row) => mcpLogSchema.fromRow(row)) };
    },
  };
}
