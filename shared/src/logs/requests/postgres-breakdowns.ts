import { type AnyColumn, and, eq, gte, isNotNull, lt, lte, type SQL, sql } from 'drizzle-orm';
import { requestLogs } from '../../db/schema';
import type { QueryDb } from '../../db/types';
import {
  type BreakdownQuery,
  breakdownQuery,
  type ClientUsageRow,
  type ErrorCountRow,
  MIN_ERROR_STATUS,
} from './breakdown-query';
import type { CountedUsageQuery, CountedUsageRow, LoggedUsage, UsageSinceFilter } from './port';

/**
 * The request log's reads by client, by error and per key, in Postgres (the ClickHouse twins
 * are in clickhouse-breakdowns.ts). Sums of bigint columns arrive as strings (numeric).
 */

type Int = string | number;
const sumOf = (column: AnyColumn) => sql<Int | null>`sum(${column})`;

/** Inclusive from..to, optionally one model and one user: the analytics reads' filter. */
export function analyticsWhere(query: BreakdownQuery): SQL | undefined {
  return and(
    gte(requestLogs.createdAt, query.from),
    lte(requestLogs.createdAt, query.to),
    query.model === undefined ? undefined : eq(requestLogs.model, query.model),
    query.userId === undefined ? undefined : eq(requestLogs.userId, query.userId),
  );
}

export async function postgresClientUsage(db: QueryDb, input: BreakdownQuery): Promise<ClientUsageRow[]> {
  const query = breakdownQuery(input);
  const rows = await db
    .select({
      clientName: requestLogs.clientName,
      clientVersion: requestLogs.clientVersion,
      requests: sql<Int>`count(*)`,
      errors: sql<Int>`count(*) filter (where ${requestLogs.statusCode} >= ${MIN_ERROR_STATUS})`,
      promptTokens: sumOf(requestLogs.promptTokens),
      completionTokens: sumOf(requestLogs.completionTokens),
      cacheReadTokens: sumOf(requestLogs.cachedTokens),
      cacheWriteTokens: sumOf(requestLogs.cacheWriteTokens),
      reasoningTokens: sumOf(requestLogs.reasoningTokens),
      costUsd: sql<Int | null>`sum(${requestLogs.costUsd})`,
      unpricedRequests: sql<Int>`count(*) - count(${requestLogs.costUsd})`,
    })
    .from(requestLogs)
    .where(analyticsWhere(query))
    .groupBy(requestLogs.clientName, requestLogs.clientVersion);
  return rows.map((row) => ({
    clientName: row.clientName,
    clientVersion: row.clientVersion,
    requests: Number(row.requests),
    errors: Number(row.errors),
    promptTokens: Number(row.promptTokens ?? 0),
    completionTokens: Number(row.completionTokens ?? 0),
    cacheReadTokens: Number(row.cacheReadTokens ?? 0),
    cacheWriteTokens: Number(row.cacheWriteTokens ?? 0),
    reasoningTokens: Number(row.reasoningTokens ?? 0),
    costUsd: Number(row.costUsd ?? 0),
    unpricedRequests: Number(row.unpricedRequests),
  }));
}

export async function postgresErrorCounts(db: QueryDb, input: BreakdownQuery): Promise<ErrorCountRow[]> {
  const query = breakdownQuery(input);
  const rows = await db
    .select({
      errorType: requestLogs.errorType,
      clientName: requestLogs.clientName,
      statusCode: requestLogs.statusCode,
      requests: sql<Int>`count(*)`,
    })
    .from(requestLogs)
    .where(and(analyticsWhere(query), gte(requestLogs.statusCode, MIN_ERROR_STATUS)))
    .groupBy(requestLogs.errorType, requestLogs.clientName, requestLogs.statusCode);
  return rows.map((row) => ({ ...row, requests: Number(row.requests) }));
}

export async function postgresUsageSince(db: QueryDb, filter: UsageSinceFilter): Promise<LoggedUsage> {
  const who =
    'apiKeyId' in filter ? eq(requestLogs.apiKeyId, filter.apiKeyId) : eq(requestLogs.userId, filter.userId);
  const [row] = await db
    .select({
      costUsd: sql<Int | null>`sum(${requestLogs.costUsd})`,
      cacheReadTokens: sumOf(requestLogs.cachedTokens),
      cacheWriteTokens: sumOf(requestLogs.cacheWriteTokens),
      reasoningTokens: sumOf(requestLogs.reasoningTokens),
    })
    .from(requestLogs)
    .where(and(who, gte(requestLogs.createdAt, filter.since)));
  return {
    costUsd: Number(row?.costUsd ?? 0),
    cacheReadTokens: Number(row?.cacheReadTokens ?? 0),
    cacheWriteTokens: Number(row?.cacheWriteTokens ?? 0),
    reasoningTokens: Number(row?.reasoningTokens ?? 0),
  };
}

export async function postgresCountedUsage(
  db: QueryDb,
  query: CountedUsageQuery,
): Promise<CountedUsageRow[]> {
  const day = sql<Int>`floor(extract(epoch from ${requestLogs.createdAt}) / 86400)::bigint`;
  const ended = sql`${requestLogs.createdAt} + ${requestLogs.latencyMs} * interval '1 millisecond'`;
  const rows = await db
    .select({
      apiKeyId: requestLogs.apiKeyId,
      userId: requestLogs.userId,
      day,
      requests: sql<Int>`count(*) filter (where not ${requestLogs.uncounted})`,
      weightedTokens: sql<Int | null>`sum(${requestLogs.weightedTokens}) filter (where ${ended} < ${query.before})`,
    })
    .from(requestLogs)
    .where(
      and(
        gte(requestLogs.createdAt, query.since),
        lt(requestLogs.createdAt, query.before),
        isNotNull(requestLogs.userId),
      ),
    )
    .groupBy(requestLogs.apiKeyId, requestLogs.userId, day);
  return rows.map((row) => ({
    apiKeyId: row.apiKeyId,
    userId: row.userId ?? '',
    day: Number(row.day),
    requests: Number(row.requests),
    weightedTokens: Number(row.weightedTokens ?? 0),
  }));
}
