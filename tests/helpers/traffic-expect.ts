import { type UsageGroupBy, usageBucketStart } from '../../shared/src/logs/requests/aggregate-query';

/** A request-log row as GET /api/gateway/logs returns it (the fields the analytics sum). */
export interface LogRow {
  id: string;
  created_at: string;
  model: string;
  status_code: number;
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  total_tokens: number;
  cost_usd: number | null;
  unpriced: boolean;
  latency_ms: number;
  cache_hit: boolean;
}

const STEP_MS: Record<UsageGroupBy, number> = { hour: 3_600_000, day: 86_400_000, week: 7 * 86_400_000 };

/** Cost as stored: nano-dollars, so float sums compare exactly. */
export const nanos = (usd: number): number => Math.round(usd * 1e9);

/** The rows of each period from the bucket of `from` to the bucket of `to`, zero-filled. */
export function periodsOf(
  rows: LogRow[],
  from: Date,
  to: Date,
  groupBy: UsageGroupBy,
): Map<string, LogRow[]> {
  const periods = new Map<string, LogRow[]>();
  const last = usageBucketStart(to, groupBy).getTime();
  for (let t = usageBucketStart(from, groupBy).getTime(); t <= last; t += STEP_MS[groupBy]) {
    periods.set(new Date(t).toISOString(), []);
  }
  for (const row of rows) {
    const at = new Date(row.created_at);
    if (at < from || at > to) continue;
    periods.get(usageBucketStart(at, groupBy).toISOString())?.push(row);
  }
  return periods;
}

export function usageOf(period: string, rows: LogRow[]) {
  return {
    period,
    request_count: rows.length,
    prompt_tokens: rows.reduce((n, r) => n + r.prompt_tokens, 0),
    completion_tokens: rows.reduce((n, r) => n + r.completion_tokens, 0),
    total_tokens: rows.reduce((n, r) => n + r.total_tokens, 0),
  };
}

/** Cost per model in nano-dollars; a model with no priced row has no entry (never $0). */
export function costByModelNanos(rows: LogRow[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of rows) if (r.cost_usd !== null) out[r.model] = (out[r.model] ?? 0) + nanos(r.cost_usd);
  return out;
}

export function costOf(period: string, rows: LogRow[]) {
  return {
    period,
    total_cost_nanos: rows.reduce((n, r) => n + (r.cost_usd === null ? 0 : nanos(r.cost_usd)), 0),
    by_model: costByModelNanos(rows),
    unpriced_requests: rows.filter((r) => r.unpriced).length,
  };
}

/** An analytics cost answer with its dollars as nano-dollars, to compare with costOf. */
export function inNanos(period: {
  period?: string;
  total_cost_usd: number;
  by_model: Record<string, number>;
  unpriced_requests: number;
}) {
  return {
    ...(period.period !== undefined && { period: period.period }),
    total_cost_nanos: nanos(period.total_cost_usd),
    by_model: Object.fromEntries(Object.entries(period.by_model).map(([m, usd]) => [m, nanos(usd)])),
    unpriced_requests: period.unpriced_requests,
  };
}
