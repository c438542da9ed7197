import { usageAggregateQuery } from './aggregate-query';

/**
 * Analytics by client and by error over the request log (GET /api/analytics/clients and
 * /errors), the same for both adapters: rows with from <= created_at <= to (inclusive),
 * optionally one model and one user, grouped without time buckets.
 */
export interface BreakdownQuery {
  from: Date;
  to: Date;
  model?: string;
  userId?: string;
}

/** One client name and version; null when the request carried no User-Agent. */
export interface ClientUsageRow {
  clientName: string | null;
  clientVersion: string | null;
  requests: number;
  /** Requests answered with a status of 400 or more (refusals included). */
  errors: number;
  promptTokens: number;
  completionTokens: number;
  /** cached_tokens: input tokens read from the prompt cache. */
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  /** Sum of non-null cost_usd (0 when every row is unpriced). */
  costUsd: number;
  /** Rows whose cost_usd is null. */
  unpricedRequests: number;
}

/** One (error type, client name, status code) group of requests with a status of 400 or more. */
export interface ErrorCountRow {
  /** Null when the failure was logged without one. */
  errorType: string | null;
  clientName: string | null;
  statusCode: number;
  requests: number;
}

/** The status codes counted as errors. */
export const MIN_ERROR_STATUS = 400;

/**
 * Validates a breakdown query (RangeError on a bad value) with the widest range the stats
 * allow (week buckets: 5 years); the user id comes back lowercased, as stored.
 */
export function breakdownQuery(query: BreakdownQuery): BreakdownQuery {
  const { from, to, model, userId } = usageAggregateQuery({ ...query, groupBy: 'week' });
  return { from, to, model, userId };
}
