import type { RequestLogEndpoint } from './record';

/** Usage/cost aggregation over the request log (GET /api/analytics/*), the same for both adapters. */

export const USAGE_GROUP_BYS = ['hour', 'day', 'week'] as const;
export type UsageGroupBy = (typeof USAGE_GROUP_BYS)[number];

const DAY_MS = 86_400_000;

/** The widest from..to each bucket size allows (beyond is refused, not clamped). */
export const MAX_USAGE_RANGE_MS: Readonly<Record<UsageGroupBy, number>> = {
  hour: 31 * DAY_MS,
  day: 366 * DAY_MS,
  week: (5 * 365 + 2) * DAY_MS,
};

/**
 * Rows of the log with from <= created_at <= to (inclusive), optionally one model and one user,
 * grouped by UTC bucket start (hour; day at 00:00; week on Monday 00:00), model and endpoint.
 */
export interface UsageAggregateQuery {
  from: Date;
  to: Date;
  groupBy: UsageGroupBy;
  model?: string;
  userId?: string;
}

/** One (bucket, model, endpoint) group. costUsd sums only priced rows; unpriced ones are counted apart. */
export interface UsageBucketRow {
  bucketStart: Date;
  model: string;
  endpoint: RequestLogEndpoint;
  requests: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** cached_tokens: input tokens read from the prompt cache. */
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  /** Sum of non-null cost_usd (0 when every row is unpriced). */
  costUsd: number;
  /** Rows whose cost_usd is null. */
  unpricedRequests: number;
  latencyMsSum: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Validates an aggregate query (RangeError on a bad value): real dates, from <= to, the range
 * within MAX_USAGE_RANGE_MS for the bucket size, a uuid user (returned lowercased, as stored).
 */
export function usageAggregateQuery(query: UsageAggregateQuery): UsageAggregateQuery {
  if (!USAGE_GROUP_BYS.includes(query.groupBy))
    throw new RangeError(`invalid groupBy ${String(query.groupBy)}`);
  for (const [name, value] of [
    ['from', query.from],
    ['to', query.to],
  ] as const) {
    if (!(value instanceof Date && Number.isFinite(value.getTime()))) throw new RangeError(`invalid ${name}`);
  }
  const span = query.to.getTime() - query.from.getTime();
  if (span < 0) throw new RangeError('from is after to');
  if (span > MAX_USAGE_RANGE_MS[query.groupBy]) {
    throw new RangeError(`range too long for group_by ${query.groupBy}`);
  }
  if (query.model !== undefined && typeof query.model !== 'string') throw new RangeError('invalid model');
  let userId: string | undefined;
  if (query.userId !== undefined) {
    if (typeof query.userId !== 'string' || !UUID.test(query.userId)) throw new RangeError('invalid userId');
    userId = query.userId.toLowerCase();
  }
  return { from: query.from, to: query.to, groupBy: query.groupBy, model: query.model, userId };
}

/** The UTC start of the bucket holding `at`: top of the hour, 00:00, or Monday 00:00. */
export function usageBucketStart(at: Date, groupBy: UsageGroupBy): Date {
  const ms = at.getTime();
  if (groupBy === 'hour') return new Date(ms - mod(ms, 3_600_000));
  const day = ms - mod(ms, DAY_MS);
  if (groupBy === 'day') return new Date(day);
  // getUTCDay: 0 = Sunday; Monday is 0 days back, Sunday 6.
  const back = (new Date(day).getUTCDay() + 6) % 7;
  return new Date(day - back * DAY_MS);
}

/** The start of the bucket after the one starting at `start`. */
export function nextUsageBucket(start: Date, groupBy: UsageGroupBy): Date {
  const step = groupBy === 'hour' ? 3_600_000 : groupBy === 'day' ? DAY_MS : 7 * DAY_MS;
  return new Date(start.getTime() + step);
}

function mod(a: number, b: number): number {
  return ((a % b) + b) % b;
}
