import { and, asc, between, count, desc, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';
import { requestLogs } from '../../db/schema';
import type { QueryDb } from '../../db/types';
import type { SpillTable } from '../analytics/log-spill';
import { type UsageAggregateQuery, type UsageBucketRow, usageAggregateQuery } from './aggregate-query';
import { type RequestLogFilter, type RequestLogStore, requestLogPage } from './port';
import {
  analyticsWhere,
  postgresClientUsage,
  postgresCountedUsage,
  postgresErrorCounts,
  postgresUsageSince,
} from './postgres-breakdowns';
import type { RequestLogRecord } from './record';
import { type RequestLogSearchQuery, requestLogSearchQuery } from './search-filter';

/** Postgres allows 65,535 bind parameters per statement; 35 columns per row stay well below. */
const ROWS_PER_STATEMENT = 1_000;

/**
 * The request log in Postgres (`request_logs`), for deployments without ClickHouse. One
 * statement per batch of rows, so it runs on the Neon HTTP driver as well as on a Pool.
 */
export function createPostgresRequestLogStore(db: QueryDb): RequestLogStore {
  return {
    async insert(records) {
      for (let start = 0; start < records.length; start += ROWS_PER_STATEMENT) {
        await db.insert(requestLogs).values(records.slice(start, start + ROWS_PER_STATEMENT).map(toRow));
      }
    },
    async list(filter: RequestLogFilter = {}) {
      const { limit, offset } = requestLogPage(filter);
      const rows = await db
        .select()
        .from(requestLogs)
        .where(filter.apiKeyId === undefined ? undefined : eq(requestLogs.apiKeyId, filter.apiKeyId))
        .orderBy(desc(requestLogs.createdAt), desc(requestLogs.id))
        .limit(limit)
        .offset(offset);
      return rows.map(toRow);
    },
    usageSince: (filter) => postgresUsageSince(db, filter),
    countedUsage: (query) => postgresCountedUsage(db, query),
    async search(filter) {
      const query = requestLogSearchQuery(filter);
      const where = searchWhere(query);
      const [rows, [counted]] = await Promise.all([
        db
          .select()
          .from(requestLogs)
          .where(where)
          .orderBy(...searchOrder(query))
          .limit(query.limit)
          .offset(query.offset),
        db.select({ total: count() }).from(requestLogs).where(where),
      ]);
      return { total: Number(counted?.total ?? 0), entries: rows.map(toRow) };
    },
    async aggregate(input) {
      const query = usageAggregateQuery(input);
      const bucket = bucketSeconds(query);
      const rows = await db
        .select({
          bucket,
          model: requestLogs.model,
          endpoint: requestLogs.endpoint,
          requests: sql<string | number>`count(*)`,
          promptTokens: sql<string | number>`sum(${requestLogs.promptTokens})`,
          completionTokens: sql<string | number>`sum(${requestLogs.completionTokens})`,
          totalTokens: sql<string | number>`sum(${requestLogs.totalTokens})`,
          cacheReadTokens: sql<string | number>`sum(${requestLogs.cachedTokens})`,
          cacheWriteTokens: sql<string | number>`sum(${requestLogs.cacheWriteTokens})`,
          reasoningTokens: sql<string | number>`sum(${requestLogs.reasoningTokens})`,
          costUsd: sql<string | number | null>`sum(${requestLogs.costUsd})`,
          unpricedRequests: sql<string | number>`count(*) - count(${requestLogs.costUsd})`,
          latencyMsSum: sql<string | number>`sum(${requestLogs.latencyMs})`,
        })
        .from(requestLogs)
        .where(analyticsWhere(query))
        .groupBy(bucket, requestLogs.model, requestLogs.endpoint);
      return rows.map(
        (row): UsageBucketRow => ({
          bucketStart: new Date(Number(row.bucket) * 1000),
          model: row.model,
          endpoint: row.endpoint,
          requests: Number(row.requests),
          promptTokens: Number(row.promptTokens),
          completionTokens: Number(row.completionTokens),
          totalTokens: Number(row.totalTokens),
          cacheReadTokens: Number(row.cacheReadTokens),
          cacheWriteTokens: Number(row.cacheWriteTokens),
          reasoningTokens: Number(row.reasoningTokens),
          costUsd: Number(row.costUsd ?? 0),
          unpricedRequests: Number(row.unpricedRequests),
          latencyMsSum: Number(row.latencyMsSum),
        }),
      );
    },
    clientUsage: (query) => postgresClientUsage(db, query),
    errorCounts: (query) => postgresErrorCounts(db, query),
  };
}

/**
 * The bucket start as Unix seconds, truncated in UTC whatever the session time zone
 * (date_trunc('week') starts on Monday). The unit is one of three fixed literals.
 */
function bucketSeconds(query: UsageAggregateQuery): SQL<string | number> {
  const unit = sql.raw(`'${query.groupBy === 'hour' ? 'hour' : query.groupBy === 'day' ? 'day' : 'week'}'`);
  return sql<
    string | number
  >`extract(epoch from date_trunc(${unit}, ${requestLogs.createdAt} at time zone 'UTC'))::bigint`;
}

function searchWhere(query: RequestLogSearchQuery): SQL | undefined {
  return and(
    query.model === undefined ? undefined : eq(requestLogs.model, query.model),
    query.provider === undefined ? undefined : eq(requestLogs.provider, query.provider),
    query.userId === undefined ? undefined : eq(requestLogs.userId, query.userId),
    query.apiKeyId === undefined ? undefined : eq(requestLogs.apiKeyId, query.apiKeyId),
    query.status === undefined
      ? undefined
      : between(requestLogs.statusCode, query.status.min, query.status.max),
    query.unpriced === undefined ? undefined : eq(requestLogs.unpriced, query.unpriced),
    query.clientName === undefined ? undefined : eq(requestLogs.clientName, query.clientName),
    query.errorType === undefined ? undefined : eq(requestLogs.errorType, query.errorType),
    query.from === undefined ? undefined : gte(requestLogs.createdAt, query.from),
    query.to === undefined ? undefined : lte(requestLogs.createdAt, query.to),
  );
}

/** The same table as ClickHouse's spill (analytics/log-spill.ts): rows wait here during an outage. */
export function createPostgresRequestLogSpill(db: QueryDb): SpillTable<RequestLogRecord> {
  const store = createPostgresRequestLogStore(db);
  return {
    insert: (records) => store.insert(records),
    async oldest(limit) {
      const rows = await db
        .select()
        .from(requestLogs)
        .orderBy(asc(requestLogs.createdAt), asc(requestLogs.id))
        .limit(limit);
      return rows.map(toRow);
    },
    async remove(ids) {
      if (ids.length > 0) await db.delete(requestLogs).where(inArray(requestLogs.id, [...ids]));
    },
  };
}

/**
 * Always descending; the id breaks ties so paging is stable. Postgres puts NULLs first in a
 * descending order, so unpriced rows are sent last explicitly (ClickHouse does the same).
 */
function searchOrder(query: RequestLogSearchQuery): SQL[] {
  const byId = desc(requestLogs.id);
  if (query.sortBy === 'cost_usd') return [sql`${requestLogs.costUsd} desc nulls last`, byId];
  if (query.sortBy === 'latency_ms') return [desc(requestLogs.latencyMs), byId];
  return [desc(requestLogs.createdAt), byId];
}

/** Copies exactly the record's fields (the table's columns have the same names). */
function toRow(record: RequestLogRecord): RequestLogRecord {
  return {
    id: record.id,
    createdAt: record.createdAt,
    userId: record.userId,
    apiKeyId: record.apiKeyId,
    endpoint: record.endpoint,
    model: record.model,
    provider: record.provider,
    providerType: record.providerType,
    upstreamModel: record.upstreamModel,
    routeId: record.routeId,
    stream: record.stream,
    statusCode: record.statusCode,
    errorType: record.errorType,
    errorMessage: record.errorMessage,
    promptTokens: record.promptTokens,
    completionTokens: record.completionTokens,
    cachedTokens: record.cachedTokens,
    cacheWriteTokens: record.cacheWriteTokens,
    cacheWriteHourTokens: record.cacheWriteHourTokens,
    reasoningTokens: record.reasoningTokens,
    totalTokens: record.totalTokens,
    weightedTokens: record.weightedTokens,
    costUsd: record.costUsd,
    unpriced: record.unpriced,
    latencyMs: record.latencyMs,
    upstreamLatencyMs: record.upstreamLatencyMs,
    cacheHit: record.cacheHit,
    attempts: record.attempts,
    clientAborted: record.clientAborted,
    usageEstimated: record.usageEstimated,
    uncounted: record.uncounted,
    guardrail: record.guardrail,
    reasoningEffort: record.reasoningEffort,
    clientName: record.clientName,
    clientVersion: record.clientVersion,
    userAgent: record.userAgent,
    sessionId: record.sessionId,
  };
}
