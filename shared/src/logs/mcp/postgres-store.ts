import { and, asc, count, desc, eq, gte, inArray, isNotNull, lt, lte, type SQL, sql } from 'drizzle-orm';
import { mcpLogs } from '../../db/schema';
import type { QueryDb } from '../../db/types';
import type { CountedToolCallRow } from '../../limits/tool-counter-rebuild';
import type { McpLogRecord, McpLogStore } from '../../mcp/ports';
import { UNCOUNTED_CALL_PREFIXES } from '../../mcp/refusals';
import type { SpillTable } from '../analytics/log-spill';
import { checkMcpLogRecord, type McpLogQuery, mcpLogQuery } from './filter';

/** Postgres allows 65,535 bind parameters per statement; 10 columns per row stay well below. */
const ROWS_PER_STATEMENT = 1_000;

/**
 * The MCP call log in Postgres (`mcp_logs`), for deployments without ClickHouse. One statement
 * per batch of rows, so it runs on the Neon HTTP driver as well as on a Pool.
 */
export function createPostgresMcpLogStore(db: QueryDb): McpLogStore {
  return {
    async insert(records) {
      records.forEach(checkMcpLogRecord);
      for (let start = 0; start < records.length; start += ROWS_PER_STATEMENT) {
        await db.insert(mcpLogs).values(records.slice(start, start + ROWS_PER_STATEMENT).map(toRecord));
      }
    },
    async list(filter) {
      const query = mcpLogQuery(filter);
      const where = whereOf(query);
      const [rows, [counted]] = await Promise.all([
        db
          .select()
          .from(mcpLogs)
          .where(where)
          .orderBy(...orderOf(query))
          .limit(query.limit)
          .offset(query.offset),
        db.select({ total: count() }).from(mcpLogs).where(where),
      ]);
      return { total: Number(counted?.total ?? 0), entries: rows.map(toRecord) };
    },
    countedCalls: (query) => countedCalls(db, query),
  };
}

/** See McpLogStore.countedCalls; a refusal is told by its text's prefix (refusals.ts). */
async function countedCalls(
  db: QueryDb,
  query: { since: Date; before: Date },
): Promise<CountedToolCallRow[]> {
  const day = sql<number>`floor(extract(epoch from ${mcpLogs.createdAt}) / 86400)::bigint`;
  const refused = sql.join(
    UNCOUNTED_CALL_PREFIXES.map(
      (prefix) => sql`left(coalesce(${mcpLogs.error}, ''), ${prefix.length}) = ${prefix}`,
    ),
    sql` or `,
  );
  const rows = await db
    .select({
      apiKeyId: mcpLogs.apiKeyId,
      userId: mcpLogs.userId,
      serverName: mcpLogs.serverName,
      toolName: mcpLogs.toolName,
      day,
      calls: count(),
    })
    .from(mcpLogs)
    .where(
      and(
        gte(mcpLogs.createdAt, query.since),
        lt(mcpLogs.createdAt, query.before),
        isNotNull(mcpLogs.userId),
        sql`not (${mcpLogs.status} = 'error' and (${refused}))`,
      ),
    )
    .groupBy(mcpLogs.apiKeyId, mcpLogs.userId, mcpLogs.serverName, mcpLogs.toolName, day);
  return rows.map((row) => ({
    ...row,
    userId: row.userId ?? '',
    day: Number(row.day),
    calls: Number(row.calls),
  }));
}

/** The same table as ClickHouse's spill (analytics/log-spill.ts): rows wait here during an outage. */
export function createPostgresMcpLogSpill(db: QueryDb): SpillTable<McpLogRecord> {
  const store = createPostgresMcpLogStore(db);
  return {
    insert: (records) => store.insert(records),
    async oldest(limit) {
      const rows = await db
        .select()
        .from(mcpLogs)
        .orderBy(asc(mcpLogs.createdAt), asc(mcpLogs.id))
        .limit(limit);
      return rows.map(toRecord);
    },
    async remove(ids) {
      if (ids.length > 0) await db.delete(mcpLogs).where(inArray(mcpLogs.id, [...ids]));
    },
  };
}

function whereOf(query: McpLogQuery): SQL | undefined {
  const conditions = [
    query.userId === undefined ? undefined : eq(mcpLogs.userId, query.userId),
    query.serverId === undefined ? undefined : eq(mcpLogs.serverId, query.serverId),
    query.toolName === undefined ? undefined : eq(mcpLogs.toolName, query.toolName),
    query.status === undefined ? undefined : eq(mcpLogs.status, query.status),
    query.from === undefined ? undefined : gte(mcpLogs.createdAt, query.from),
    query.to === undefined ? undefined : lte(mcpLogs.createdAt, query.to),
  ];
  return and(...conditions);
}

/** Always descending; the id breaks ties so paging is stable. */
function orderOf(query: McpLogQuery): SQL[] {
  const first = query.sortBy === 'duration_ms' ? mcpLogs.durationMs : mcpLogs.createdAt;
  return [desc(first), desc(mcpLogs.id)];
}

/** Copies exactly the record's fields (the table's columns have the same names). */
function toRecord(row: McpLogRecord): McpLogRecord {
  return {
    id: row.id,
    createdAt: row.createdAt,
    userId: row.userId,
    apiKeyId: row.apiKeyId,
    serverId: row.serverId,
    serverName: row.serverName,
    toolName: row.toolName,
    status: row.status,
    durationMs: row.durationMs,
    error: row.error,
  };
}
