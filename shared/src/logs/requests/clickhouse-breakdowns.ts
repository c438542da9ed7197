import { chCreatedBefore, chCreatedFrom } from '../analytics/clickhouse-created';
import { type ChSql, chJoin, chSql } from '../analytics/clickhouse-sql';
import {
  type BreakdownQuery,
  type ClientUsageRow,
  type ErrorCountRow,
  MIN_ERROR_STATUS,
} from './breakdown-query';
import { analyticsConditions } from './clickhouse-aggregate';
import { chDecoded, mergeGroups } from './clickhouse-rollup';
import type { CountedUsageQuery, CountedUsageRow, LoggedUsage, UsageSinceFilter } from './port';

/**
 * SQL for the request log's reads by client, by error and per key (18.16: no server-side
 * parameters, so every value is formatted by chSql). As in clickhouse-aggregate.ts, aliases
 * never reuse a column name, and 64-bit sums and counts arrive as JSON strings.
 */

type Int = string | number;

export interface SelectedClientRow {
  client: string | null;
  version: string | null;
  requests: Int;
  errors: Int;
  prompt_tokens_sum: Int;
  completion_tokens_sum: Int;
  cache_read_tokens_sum: Int;
  cache_write_tokens_sum: Int;
  reasoning_tokens_sum: Int;
  cost_usd_sum: Int | null;
  unpriced_requests: Int;
}

export interface SelectedErrorRow {
  error: string | null;
  client: string | null;
  status: Int;
  requests: Int;
}

export interface SelectedLoggedUsage {
  cost_usd_sum: Int | null;
  cache_read_tokens_sum: Int | null;
  cache_write_tokens_sum: Int | null;
  reasoning_tokens_sum: Int | null;
}

const where = (query: BreakdownQuery, time?: ChSql) => chJoin(analyticsConditions(query, time), chSql` AND `);

export function clientUsageSql(table: ChSql, query: BreakdownQuery, time?: ChSql): ChSql {
  return chSql`SELECT client_name AS client, client_version AS version,
      count() AS requests,
      countIf(status_code >= ${MIN_ERROR_STATUS}) AS errors,
      sum(prompt_tokens) AS prompt_tokens_sum,
      sum(completion_tokens) AS completion_tokens_sum,
      sum(cached_tokens) AS cache_read_tokens_sum,
      sum(cache_write_tokens) AS cache_write_tokens_sum,
      sum(reasoning_tokens) AS reasoning_tokens_sum,
      sum(cost_usd) AS cost_usd_sum,
      countIf(isNull(cost_usd)) AS unpriced_requests
    FROM ${table} WHERE ${where(query, time)}
    GROUP BY client, version`;
}

export function errorCountsSql(table: ChSql, query: BreakdownQuery, time?: ChSql): ChSql {
  return chSql`SELECT error_type AS error, client_name AS client, status_code AS status,
      count() AS requests
    FROM ${table} WHERE ${where(query, time)} AND status_code >= ${MIN_ERROR_STATUS}
    GROUP BY error, client, status`;
}

const rollupModel = (query: BreakdownQuery) =>
  query.model === undefined ? chSql`` : chSql`AND model_name = ${query.model}`;

/** clientUsageSql's groups from a rollup (clickhouse-rollup.ts) of the request log, within `where`. */
export function clientRollupSql(table: ChSql, query: BreakdownQuery, where: ChSql): ChSql {
  return chSql`SELECT ${chDecoded('client_key')} AS client, ${chDecoded('version_key')} AS version,
      sum(n_requests) AS requests,
      sumIf(n_requests, status >= ${MIN_ERROR_STATUS}) AS errors,
      sum(n_prompt_tokens) AS prompt_tokens_sum,
      sum(n_completion_tokens) AS completion_tokens_sum,
      sum(n_cached_tokens) AS cache_read_tokens_sum,
      sum(n_cache_write_tokens) AS cache_write_tokens_sum,
      sum(n_reasoning_tokens) AS reasoning_tokens_sum,
      sum(n_cost_usd) AS cost_usd_sum,
      sum(n_unpriced) AS unpriced_requests
    FROM ${table} WHERE ${where} ${rollupModel(query)}
    GROUP BY client, version`;
}

/** errorCountsSql's groups from a rollup (clickhouse-rollup.ts) of the request log, within `where`. */
export function errorRollupSql(table: ChSql, query: BreakdownQuery, where: ChSql): ChSql {
  return chSql`SELECT ${chDecoded('error_key')} AS error, ${chDecoded('client_key')} AS client,
      status, sum(n_requests) AS requests
    FROM ${table} WHERE ${where} ${rollupModel(query)} AND status >= ${MIN_ERROR_STATUS}
    GROUP BY error, client, status`;
}

/** Adds up the groups of the log's and the rollup's parts of one read. */
export function mergeClientRows(rows: ClientUsageRow[]): ClientUsageRow[] {
  return mergeGroups(
    rows,
    ['clientName', 'clientVersion'],
    [
      'requests',
      'errors',
      'promptTokens',
      'completionTokens',
      'cacheReadTokens',
      'cacheWriteTokens',
      'reasoningTokens',
      'costUsd',
      'unpricedRequests',
    ],
  );
}

export function mergeErrorRows(rows: ErrorCountRow[]): ErrorCountRow[] {
  return mergeGroups(rows, ['errorType', 'clientName', 'statusCode'], ['requests']);
}

/** `time` replaces the bound on `since` (a part of the range, see clickhouse-rollup.ts). */
export function usageSinceSql(table: ChSql, filter: UsageSinceFilter, time?: ChSql): ChSql {
  const who =
    'apiKeyId' in filter ? chSql`api_key_id = ${filter.apiKeyId}` : chSql`user_id = ${filter.userId}`;
  return chSql`SELECT sum(cost_usd) AS cost_usd_sum,
      sum(cached_tokens) AS cache_read_tokens_sum,
      sum(cache_write_tokens) AS cache_write_tokens_sum,
      sum(reasoning_tokens) AS reasoning_tokens_sum
    FROM ${table} WHERE ${who} AND ${time ?? chCreatedFrom(filter.since)}`;
}

/** The same from the rollup's groups of the key or user, within `where` (which names them). */
export function usageSinceRollupSql(table: ChSql, where: ChSql): ChSql {
  return chSql`SELECT sum(n_cost_usd) AS cost_usd_sum,
      sum(n_cached_tokens) AS cache_read_tokens_sum,
      sum(n_cache_write_tokens) AS cache_write_tokens_sum,
      sum(n_reasoning_tokens) AS reasoning_tokens_sum
    FROM ${table} WHERE ${where}`;
}

export function mergeLoggedUsage(rows: LoggedUsage[]): LoggedUsage[] {
  return mergeGroups(rows, [], ['costUsd', 'cacheReadTokens', 'cacheWriteTokens', 'reasoningTokens']);
}

export function fromClientRow(row: SelectedClientRow): ClientUsageRow {
  return {
    clientName: row.client,
    clientVersion: row.version,
    requests: Number(row.requests),
    errors: Number(row.errors),
    promptTokens: Number(row.prompt_tokens_sum),
    completionTokens: Number(row.completion_tokens_sum),
    cacheReadTokens: Number(row.cache_read_tokens_sum),
    cacheWriteTokens: Number(row.cache_write_tokens_sum),
    reasoningTokens: Number(row.reasoning_tokens_sum),
    costUsd: Number(row.cost_usd_sum ?? 0),
    unpricedRequests: Number(row.unpriced_requests),
  };
}

export function fromErrorRow(row: SelectedErrorRow): ErrorCountRow {
  return {
    errorType: row.error,
    clientName: row.client,
    statusCode: Number(row.status),
    requests: Number(row.requests),
  };
}

/** An empty match sums to NULL in SQL: 0 here. */
export function fromLoggedUsage(row: SelectedLoggedUsage | undefined): LoggedUsage {
  return {
    costUsd: Number(row?.cost_usd_sum ?? 0),
    cacheReadTokens: Number(row?.cache_read_tokens_sum ?? 0),
    cacheWriteTokens: Number(row?.cache_write_tokens_sum ?? 0),
    reasoningTokens: Number(row?.reasoning_tokens_sum ?? 0),
  };
}

export interface SelectedCountedRow {
  api_key_id: string | null;
  user_id: string;
  day: Int;
  requests: Int;
  weighted_tokens_sum: Int;
}

const DAY_MS = 86_400_000;

export function countedUsageSql(table: ChSql, query: CountedUsageQuery): ChSql {
  const before = Math.max(0, query.before.getTime());
  return chSql`SELECT api_key_id, user_id, intDiv(created_at_ms, ${DAY_MS}) AS day,
      countIf(uncounted = 0) AS requests,
      sumIf(weighted_tokens, created_at_ms + latency_ms < ${before}) AS weighted_tokens_sum
    FROM ${table}
    WHERE ${chCreatedFrom(query.since)} AND ${chCreatedBefore(query.before)} AND isNotNull(user_id)
    GROUP BY api_key_id, user_id, day`;
}

export function fromCountedRow(row: SelectedCountedRow): CountedUsageRow {
  return {
    apiKeyId: row.api_key_id,
    userId: row.user_id,
    day: Number(row.day),
    requests: Number(row.requests),
    weightedTokens: Number(row.weighted_tokens_sum),
  };
}
