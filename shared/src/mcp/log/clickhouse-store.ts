import type { ClickHouseClient } from '@clickhouse/client-web';
import { type ChSql, chIdent, chJoin, chSql } from '../../analytics/clickhouse-sql';
import { CLICKHOUSE_ROW_FORMAT } from '../../stores/clickhouse';
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

/** Creates `<database>.mcp_logs` if it is missing. The database must exist. */
export async function ensureMcpLogTable(client: ClickHouseClient, database: string): Promise<void> {
  await client.command({ query: mcpLogTableDdl(database).sql });
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

// DateTime is unsigned seconds; 18.16 maps instants outside 1970..2105 to the zero date.
const DATETIME_END_MS = Date.UTC(2106, 0, 1);

/**
 * UUIDs are stored lowercased: Postgres returns them so, and its uuid order is the order of
 * the lowercase text, so both adapters list and break ties alike.
 */
function toRow(record: McpLogRecord): McpLogRow {
  checkMcpLogRecord(record);
  const ms = record.createdAt.getTime();
  if (!(ms >= 0 && ms < DATETIME_END_MS)) {
    throw new RangeError(`mcp log ${record.id}: createdAt is outside 1970-01-01..2105-12-31`);
  }
  return {
    id: record.id.toLowerCase(),
    created_at: Math.floor(ms / 1000),
    created_at_ms: ms,
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

export interface ClickHouseMcpLogStoreOptions {
  database: string;
  /** Creates the database; it runs before the table is created (see ensureClickHouseDatabase). */
  ensureDatabase?: () => Promise<void>;
}

/**
 * The MCP call log in ClickHouse. The table is created on first use (once; again after a failed
 * attempt). Every name is qualified with the database, so one client can serve several.
 */
export function createClickHouseMcpLogStore(
  client: ClickHouseClient,
  options: ClickHouseMcpLogStoreOptions,
): McpLogStore {
  const table = chIdent(options.database, MCP_LOG_TABLE);
  const columns = chJoin(SELECTED_COLUMNS.map((column) => chIdent(column)));
  let ready: Promise<void> | null = null;
  const ensureTable = () => {
    ready ??= (async () => {
      await options.ensureDatabase?.();
      await ensureMcpLogTable(client, options.database);
    })().catch((error: unknown) => {
      ready = null;
      throw error;
    });
    return ready;
  };
  const select = async <T>(query: ChSql): Promise<T[]> =>
    (await client.query({ query: query.sql, format: CLICKHOUSE_ROW_FORMAT })).json<T>();
  return {
    async insert(records) {
      if (records.length === 0) return;
      const values = records.map(toRow);
      await ensureTable();
      await client.insert({ table: table.sql, values, format: CLICKHOUSE_ROW_FORMAT });
    },
    async list(filter) {
      const query = mcpLogQuery(filter);
      await ensureTable();
      const where = whereOf(query);
      const [rows, [counted]] = await Promise.all([
        select<SelectedMcpLogRow>(chSql`SELECT ${columns} FROM ${table} ${where}
          ${orderOf(query)} LIMIT ${query.offset}, ${query.limit}`),
        select<{ total: string | number }>(chSql`SELECT count() AS total FROM ${table} ${where}`),
      ]);
      return { total: Number(counted?.total ?? 0), entries: rows.map(fromRow) };
    },
  };
}
