import type { ClickHouseClient } from '@clickhouse/client-web';
import type { McpLogRecord, McpLogStore } from '../../mcp/ports';
import { UNCOUNTED_CALL_PREFIXES } from '../../mcp/refusals';
import type { ChRow } from '../analytics/clickhouse-columns';
import { chCreatedBefore, chCreatedFrom } from '../analytics/clickhouse-created';
import { type ChSql, chJoin, chSql } from '../analytics/clickhouse-sql';
import {
  type ChLogFilter,
  type ClickHouseTableOptions,
  clickHouseLogTable,
} from '../analytics/clickhouse-table';
import type { SpillTarget } from '../analytics/log-spill';
import { checkMcpLogRecord, type McpLogQuery, mcpLogQuery } from './filter';
import { mcpLogSchema } from './log-columns';

/**
 * The conditions and range of a checked query (see chWhere); the range is compared to the
 * millisecond on created_at_ms and bounds the table's key as well (chCreatedBetween).
 */
function filterOf(query: McpLogQuery): ChLogFilter {
  const where = [
    query.userId === undefined ? null : chSql`user_id = ${query.userId.toLowerCase()}`,
    query.serverId === undefined ? null : chSql`server_id = ${query.serverId.toLowerCase()}`,
    query.toolName === undefined ? null : chSql`tool_name = ${query.toolName}`,
    query.status === undefined ? null : chSql`status = ${query.status}`,
  ];
  return { where, from: query.from, to: query.to };
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
      const checked = filterOf(query);
      // Always descending; the id breaks ties so paging is stable.
      const { total, rows } =
        query.sortBy === 'duration_ms'
          ? await logs.pageBy<ChRow>(columns, checked, 'duration_ms', query)
          : await logs.page<ChRow>(columns, checked, query);
      return { total, entries: rows.map((row) => mcpLogSchema.fromRow(row)) };
    },
    async countedCalls(query) {
      const rows = await logs.select<CountedCallsRow>(countedCallsSql(logs.table, query));
      return rows.map((row) => ({
        apiKeyId: row.api_key_id,
        userId: row.user_id,
        serverName: row.server_name,
        toolName: row.tool_name,
        day: Number(row.day),
        calls: Number(row.calls),
      }));
    },
  };
}

interface CountedCallsRow {
  api_key_id: string | null;
  user_id: string;
  server_name: string;
  tool_name: string;
  day: string | number;
  calls: string | number;
}

const DAY_MS = 86_400_000;

/** Compared as bytes (substring), which ClickHouse 18.16 has; the prefixes are ASCII. */
const refused = chJoin(
  UNCOUNTED_CALL_PREFIXES.map(
    (prefix) => chSql`substring(ifNull(error, ''), 1, ${prefix.length}) = ${prefix}`,
  ),
  chSql` OR `,
);

function countedCallsSql(table: ChSql, query: { since: Date; before: Date }): ChSql {
  return chSql`SELECT api_key_id, user_id, server_name, tool_name,
      intDiv(created_at_ms, ${DAY_MS}) AS day, count() AS calls
    FROM ${table}
    WHERE ${chCreatedFrom(query.since)} AND ${chCreatedBefore(query.before)} AND isNotNull(user_id)
      AND NOT (status = 'error' AND (${refused}))
    GROUP BY api_key_id, user_id, server_name, tool_name, day`;
}
