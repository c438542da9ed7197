import { chCreatedFrom, chCreatedUntil } from '../analytics/clickhouse-created';
import { type ChSql, chJoin, chSql } from '../analytics/clickhouse-sql';
import type { UsageAggregateQuery, UsageBucketRow } from './aggregate-query';
import { mergeGroups } from './clickhouse-rollup';
import type { RequestLogEndpoint } from './record';

/**
 * A group as 18.16 returns it: 64-bit integers (and counts) are JSON strings. Aliases never
 * reuse a column name: 18.16 would substitute the alias inside the aggregate (error 184).
 */
export interface SelectedUsageBucketRow {
  bucket: string | number;
  model: string;
  endpoint: string;
  requests: string | number;
  prompt_tokens_sum: string | number;
  completion_tokens_sum: string | number;
  total_tokens_sum: string | number;
  cache_read_tokens_sum: string | number;
  cache_write_tokens_sum: string | number;
  reasoning_tokens_sum: string | number;
  cost_usd_sum: string | number | null;
  unpriced_requests: string | number;
  latency_ms_sum: string | number;
}

/**
 * The WHERE conditions of an analytics read: created_at_ms within from..to (inclusive, exact to
 * the millisecond; the table's key created_at bounded too, see chCreatedBetween) or the `time`
 * condition given instead (a part of the range, see clickhouse-rollup.ts), optionally one model
 * and one user. Values are checked by the caller.
 */
export function analyticsConditions(
  query: { from: Date; to: Date; model?: string; userId?: string },
  time?: ChSql,
): ChSql[] {
  return [
    ...(time === undefined ? [chCreatedFrom(query.from), chCreatedUntil(query.to)] : [time]),
    query.model === undefined ? null : chSql`model = ${query.model}`,
    query.userId === undefined ? null : chSql`user_id = ${query.userId}`,
  ].filter((condition): condition is ChSql => condition !== null);
}

/**
 * SQL for a checked aggregate over `table` (18.16: no server-side parameters, so every value is
 * formatted by chSql). Buckets are computed on created_at in UTC (toStartOfHour, toStartOfDay,
 * toMonday) and returned as Unix seconds; bounds compare created_at_ms, exact to the millisecond.
 */
export function usageAggregateSql(table: ChSql, query: UsageAggregateQuery, time?: ChSql): ChSql {
  return chSql`SELECT toUInt32(${bucketOf(query, chSql`created_at`)}) AS bucket, model, endpoint,
      count() AS requests,
      sum(prompt_tokens) AS prompt_tokens_sum,
      sum(completion_tokens) AS completion_tokens_sum,
      sum(total_tokens) AS total_tokens_sum,
      sum(cached_tokens) AS cache_read_tokens_sum,
      sum(cache_write_tokens) AS cache_write_tokens_sum,
      sum(reasoning_tokens) AS reasoning_tokens_sum,
      sum(cost_usd) AS cost_usd_sum,
      countIf(isNull(cost_usd)) AS unpriced_requests,
      sum(toUInt64(latency_ms)) AS latency_ms_sum
    FROM ${table} WHERE ${chJoin(analyticsConditions(query, time), chSql` AND `)}
    GROUP BY bucket, model, endpoint`;
}

/** The same groups from a rollup (clickhouse-rollup.ts) of the request log, within `where`. */
export function usageRollupSql(table: ChSql, query: UsageAggregateQuery, where: ChSql): ChSql {
  const model = query.model === undefined ? chSql`` : chSql`AND model_name = ${query.model}`;
  return chSql`SELECT toUInt32(${bucketOf(query, chSql`hour`)}) AS bucket,
      model_name AS model, endpoint_path AS endpoint,
      sum(n_requests) AS requests,
      sum(n_prompt_tokens) AS prompt_tokens_sum,
      sum(n_completion_tokens) AS completion_tokens_sum,
      sum(n_total_tokens) AS total_tokens_sum,
      sum(n_cached_tokens) AS cache_read_tokens_sum,
      sum(n_cache_write_tokens) AS cache_write_tokens_sum,
      sum(n_reasoning_tokens) AS reasoning_tokens_sum,
      sum(n_cost_usd) AS cost_usd_sum,
      sum(n_unpriced) AS unpriced_requests,
      sum(n_latency_ms) AS latency_ms_sum
    FROM ${table} WHERE ${where} ${model}
    GROUP BY bucket, model, endpoint`;
}

/** The bucket of a row by its DateTime('UTC') column `at` (created_at, or a rollup's hour). */
function bucketOf(query: UsageAggregateQuery, at: ChSql): ChSql {
  if (query.groupBy === 'hour') return chSql`toStartOfHour(${at})`;
  if (query.groupBy === 'day') return chSql`toStartOfDay(${at})`;
  // The column is DateTime('UTC'), so these truncate in UTC; toMonday gives a Date, made midnight UTC.
  return chSql`toDateTime(toMonday(${at}), 'UTC')`;
}

/** Adds up the groups of the log's and the rollup's parts of one read. */
export function mergeUsageBuckets(rows: UsageBucketRow[]): UsageBucketRow[] {
  return mergeGroups(
    rows,
    ['bucketStart', 'model', 'endpoint'],
    [
      'requests',
      'promptTokens',
      'completionTokens',
      'totalTokens',
      'cacheReadTokens',
      'cacheWriteTokens',
      'reasoningTokens',
      'costUsd',
      'unpricedRequests',
      'latencyMsSum',
    ],
  );
}

export function fromUsageBucketRow(row: SelectedUsageBucketRow): UsageBucketRow {
  return {
    bucketStart: new Date(Number(row.bucket) * 1000),
    model: row.model,
    endpoint: row.endpoint as RequestLogEndpoint,
    requests: Number(row.requests),
    promptTokens: Number(row.prompt_tokens_sum),
    completionTokens: Number(row.completion_tokens_sum),
    totalTokens: Number(row.total_tokens_sum),
    cacheReadTokens: Number(row.cache_read_tokens_sum),
    cacheWriteTokens: Number(row.cache_write_tokens_sum),
    reasoningTokens: Number(row.reasoning_tokens_sum),
    costUsd: Number(row.cost_usd_sum ?? 0),
    unpricedRequests: Number(row.unpriced_requests),
    latencyMsSum: Number(row.latency_ms_sum),
  };
}
