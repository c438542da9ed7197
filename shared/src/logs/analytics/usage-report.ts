import {
  nextUsageBucket,
  type UsageBucketRow,
  type UsageGroupBy,
  usageBucketStart,
} from '../requests/aggregate-query';
import { roundUsd } from '../requests/cost';

/**
 * Pure shaping of aggregate rows (RequestLogStore.aggregate) into the console's analytics
 * answers (GET /api/analytics/*). Every period from `from` to `to` is present, in order,
 * zeros when nothing happened; a period is the ISO 8601 UTC start of its bucket.
 */

const DAY_MS = 86_400_000;

export interface UsageRange {
  from: Date;
  to: Date;
}

export interface UsagePeriod {
  period: string;
  request_count: number;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** Prompt-cache and reasoning tokens of the range (each within the prompt or completion tokens). */
export interface TokenDetailTotals {
  /** Input tokens read from vendors' prompt caches (cached_tokens). */
  cache_read_tokens: number;
  /** Input tokens written to vendors' prompt caches. */
  cache_write_tokens: number;
  /** Output tokens spent reasoning, where the vendor reports them. */
  reasoning_tokens: number;
}

export interface UsageStats extends TokenDetailTotals {
  total_requests: number;
  total_tokens: number;
  /** Null when there were no requests. */
  avg_latency_ms: number | null;
  models: Record<string, { requests: number; tokens: number }>;
  /** By model endpoint (/v1/chat/completions, /v1/embeddings, …). */
  endpoints: Record<string, { requests: number; tokens: number }>;
}

export interface CostPeriod {
  period: string;
  /** Sum of priced requests; unpriced ones add 0 and are counted in unpriced_requests. */
  total_cost_usd: number;
  by_model: Record<string, number>;
  unpriced_requests: number;
}

export interface CostStats extends TokenDetailTotals {
  total_cost_usd: number;
  avg_daily_cost_usd: number;
  by_model: Record<string, number>;
  by_endpoint: Record<string, number>;
  unpriced_requests: number;
  /** The models of those unpriced requests, each with its count: what to price to see them. */
  unpriced_models: Record<string, number>;
}

/** The start of every bucket from the one holding `from` to the one holding `to`, in order. */
export function usagePeriods(range: UsageRange, groupBy: UsageGroupBy): Date[] {
  const last = usageBucketStart(range.to, groupBy).getTime();
  const periods: Date[] = [];
  for (
    let at = usageBucketStart(range.from, groupBy);
    at.getTime() <= last;
    at = nextUsageBucket(at, groupBy)
  ) {
    periods.push(at);
  }
  return periods;
}

/** Rows keyed by bucket start (ms); rows outside every period are ignored. */
function byPeriod(rows: readonly UsageBucketRow[]): Map<number, UsageBucketRow[]> {
  const map = new Map<number, UsageBucketRow[]>();
  for (const row of rows) {
    const key = row.bucketStart.getTime();
    const list = map.get(key);
    if (list) list.push(row);
    else map.set(key, [row]);
  }
  return map;
}

export function usageSeries(
  rows: readonly UsageBucketRow[],
  range: UsageRange,
  groupBy: UsageGroupBy,
): { data: UsagePeriod[] } {
  const grouped = byPeriod(rows);
  return {
    data: usagePeriods(range, groupBy).map((start) => {
      const entry: UsagePeriod = {
        period: start.toISOString(),
        request_count: 0,
        prompt_tokens: 0,
        completion_tokens: 0,
        total_tokens: 0,
      };
      for (const row of grouped.get(start.getTime()) ?? []) {
        entry.request_count += row.requests;
        entry.prompt_tokens += row.promptTokens;
        entry.completion_tokens += row.completionTokens;
        entry.total_tokens += row.totalTokens;
      }
      return entry;
    }),
  };
}

function tokenDetails(rows: readonly UsageBucketRow[]): TokenDetailTotals {
  const totals: TokenDetailTotals = { cache_read_tokens: 0, cache_write_tokens: 0, reasoning_tokens: 0 };
  for (const row of rows) {
    totals.cache_read_tokens += row.cacheReadTokens;
    totals.cache_write_tokens += row.cacheWriteTokens;
    totals.reasoning_tokens += row.reasoningTokens;
  }
  return totals;
}

export function usageStats(rows: readonly UsageBucketRow[]): UsageStats {
  const models = new Map<string, { requests: number; tokens: number }>();
  const endpoints = new Map<string, { requests: number; tokens: number }>();
  const add = (
    totals: Map<string, { requests: number; tokens: number }>,
    key: string,
    row: UsageBucketRow,
  ) => {
    const entry = totals.get(key) ?? { requests: 0, tokens: 0 };
    entry.requests += row.requests;
    entry.tokens += row.totalTokens;
    totals.set(key, entry);
  };
  let requests = 0;
  let tokens = 0;
  let latency = 0;
  for (const row of rows) {
    requests += row.requests;
    tokens += row.totalTokens;
    latency += row.latencyMsSum;
    add(models, row.model, row);
    add(endpoints, row.endpoint, row);
  }
  return {
    total_requests: requests,
    total_tokens: tokens,
    avg_latency_ms: requests === 0 ? null : latency / requests,
    ...tokenDetails(rows),
    models: Object.fromEntries(models),
    endpoints: Object.fromEntries(endpoints),
  };
}

/**
 * Sums cost per model (or endpoint). One none of whose requests was priced is left out: its
 * cost is unknown, not $0 (those requests are in unpriced_requests). A Map, then own
 * properties, so a model named __proto__ is just a key.
 */
function costBy(rows: readonly UsageBucketRow[], key: 'model' | 'endpoint'): Record<string, number> {
  const sums = new Map<string, number>();
  for (const row of rows) {
    if (row.requests > row.unpricedRequests) sums.set(row[key], (sums.get(row[key]) ?? 0) + row.costUsd);
  }
  return Object.fromEntries([...sums].map(([name, usd]) => [name, roundUsd(usd)]));
}

/** Unpriced requests per model, only models that had any (a Map first: __proto__ is a key). */
function unpricedBy(rows: readonly UsageBucketRow[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const row of rows) {
    if (row.unpricedRequests > 0) counts.set(row.model, (counts.get(row.model) ?? 0) + row.unpricedRequests);
  }
  return Object.fromEntries(counts);
}

export function costSeries(
  rows: readonly UsageBucketRow[],
  range: UsageRange,
  groupBy: UsageGroupBy,
): { data: CostPeriod[] } {
  const grouped = byPeriod(rows);
  return {
    data: usagePeriods(range, groupBy).map((start) => {
      const inPeriod = grouped.get(start.getTime()) ?? [];
      return {
        period: start.toISOString(),
        total_cost_usd: roundUsd(inPeriod.reduce((sum, row) => sum + row.costUsd, 0)),
        by_model: costBy(inPeriod, 'model'),
        unpriced_requests: inPeriod.reduce((sum, row) => sum + row.unpricedRequests, 0),
      };
    }),
  };
}

/** UTC calendar days touched by [from, to], at least 1. */
export function utcDaysIn(range: UsageRange): number {
  const first = Math.floor(range.from.getTime() / DAY_MS);
  const last = Math.floor(range.to.getTime() / DAY_MS);
  return Math.max(1, last - first + 1);
}

export function costStats(rows: readonly UsageBucketRow[], range: UsageRange): CostStats {
  const total = rows.reduce((sum, row) => sum + row.costUsd, 0);
  return {
    total_cost_usd: roundUsd(total),
    avg_daily_cost_usd: roundUsd(total / utcDaysIn(range)),
    by_model: costBy(rows, 'model'),
    by_endpoint: costBy(rows, 'endpoint'),
    unpriced_requests: rows.reduce((sum, row) => sum + row.unpricedRequests, 0),
    unpriced_models: unpricedBy(rows),
    ...tokenDetails(rows),
  };
}
