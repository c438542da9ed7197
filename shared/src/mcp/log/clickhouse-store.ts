import type { ClickHouseClient } from '@clickhouse/client-web';
import { type ChSql, chIdent, chJoin, chSql } from '../../analytics/clickhouse-sql';
import {
  type ClickHouseTableOptions,
  clickHouseLogTable,
  instantColumns,
} from '../../analytics/clickhouse-table';
import type { SpillTarget } from '../../analytics/log-spill';
import type { McpLogRecord, McpLogStore } from '../ports';
import { checkMcpLogRecord, type McpLogQuery, mcpLogQuery } from './filter';

export const MCP_LOG_TABLE = 'mcp_logs';

/**
 * The MCP call log in ClickHouse (18.16-compatible). DateTime holds whole seconds on 18.16 (no
 * DateTime64), so created_at_ms keeps the exact instant and orders rows; status is an Enum8 so
 * a value outside the two is refused, like the Postgres check constraint.
 * Partitioned by day: retention (retention/clickhouse.ts) drops whole days, as 18.16 has no TTL.
 */
export function mcpLogTableDdl(database: string): ChSql {
  return chSql`CREATE TABLE IF NOT EXISTS ${chIdent(database, MCP_LOG_TABLE)} (
    id String,
    created_at DateTime('UTC'),
    created_at_ms UInt64,
    user_id Nullable(String),
    api_key_id Nullable(String),
    server_id String,
    server_name String,
    tool_name String,
    status Enum8('success' = 1, 'error' = 2),
    duration_ms UInt32,
    error Nullable(String)
  ) ENGINE = MergeTree() PARTITION BY toYYYYMMDD(created_at) ORDER BY (created_at, id)`;
}

/** A row as JSONEachRow carries it to 18.16 (insert). */
interface McpLogRow {
  id: string;
  /** Unix seconds: what JSONEachRow accepts for DateTime on 18.16. */
  created_at: number;
  created_at_ms: number;
  user_id: string | null;
  api_key_id: string | null;
  server_id: string;
  server_name: string;
  tool_name: string;
  status: 'success' | 'error';
  duration_ms: number;
  error: string | null;
}

/** A row as 18.16 returns it (select): UInt64 is a JSON string. */
type SelectedMcpLogRow = Omit<McpLogRow, 'created_at' | 'created_at_ms'> & { created_at_ms: string | number };

/**
 * UUIDs are stored lowercased: Postgres returns them so, and its uuid order is the order of
 * the lowercase text, so both adapters list and break ties alike.
 */
function toRow(record: McpLogRecord): McpLogRow {
  checkMcpLogRecord(record);
  return {
    id: record.id.toLowerCase(),
    ...instantColumns(record.createdAt, `mcp log ${record.id}`),
    user_id: record.userId?.toLowerCase() ?? null,
    api_key_id: record.apiKeyId?.toLowerCase() ?? null,
    server_id: record.serverId.toLowerCase(),
    server_name: record.serverName,
    tool_name: record.toolName,
    status: record.status,
    duration_ms: record.durationMs,
    error: record.error,
  };
}

function fromRow(row: SelectedMcpLogRow): McpLogRecord {
  return {
    id: row.id,
    createdAt: new Date(Number(row.created_at_ms)),
    userId: row.user_id,
    apiKeyId: row.api_key_id,
    serverId: row.server_id,
    serverName: row.server_name,
    toolName: row.tool_name,
    status: row.status,
    durationMs: row.duration_ms,
    error: row.error,
  };
}

/** The columns list() reads: all but created_at, whose seconds created_at_ms holds exactly. */
const SELECTED_COLUMNS: readonly (keyof SelectedMcpLogRow)[] = [
  'id',
  'created_at_ms',
  'user_id',
  'api_key_id',
  'server_id',
  'server_name',
  'tool_name',
  'status',
  'duration_ms',
  'error',
];

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
  const logs = clickHouseLogTable(client, options, MCP_LOG_TABLE, mcpLogTableDdl);
  const columns = chJoin(SELECTED_COLUMNS.map((column) => chIdent(column)));
  return {
    async insert(records) {
      await logs.insert(records.map(toRow));
    },
    existingIds: (ids) => logs.existingIds(ids),
    async list(filter) {
      const query = mcpLogQuery(filter);
      const where = whereOf(query);
      const [rows, [counted]] = await Promise.all([
        logs.select<SelectedMcpLogRow>(chSql`SELECT ${columns} FROM ${logs.table} ${where}
          ${orderOf(query)} LIMIT ${query.offset}, ${query.limit}`),
        logs.select<{ total: string | number }>(chSql`SELECT count() AS total FROM ${logs.table} ${where}`),
      ]);
      return { total: Number(counted?.total ?? 0), entries: rows.map(fromRow) };
    },
  };
}
