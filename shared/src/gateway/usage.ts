import type { Principal } from '../auth/gateway/principal';
import { AppError } from '../http/app-error';
import {
  type BudgetStatus,
  type BudgetThresholds,
  budgetStatus,
  DEFAULT_BUDGET_THRESHOLDS,
} from '../limits/budget-status';
import { type LimitSubject, limitSubject } from '../limits/definitions';
import type { LimitsUsageReport } from '../limits/limiter';
import type { LoggedUsage, UsageSinceFilter } from '../logs/requests/port';

export interface UsageDeps {
  readUsage(subject: LimitSubject, nowMs: number): Promise<LimitsUsageReport>;
  /** budget_warning_threshold and budget_critical_threshold. */
  thresholds(): Promise<BudgetThresholds>;
  /** The request log's sums since the start of the month (RequestLogStore.usageSince). */
  usageSince(filter: UsageSinceFilter): Promise<LoggedUsage>;
  now(): number;
  warn(message: string, fields?: Record<string, unknown>): void;
}

/** The month's figures from the request log; each null when the log cannot be read. */
export interface LoggedMonthUsage {
  cost_usd_month: number | null;
  /** Input tokens read from vendors' prompt caches. */
  cache_read_tokens_month: number | null;
  /** Input tokens written to vendors' prompt caches. */
  cache_write_tokens_month: number | null;
  /** Output tokens spent reasoning, where the vendor reports them. */
  reasoning_tokens_month: number | null;
}

const UNREAD: LoggedMonthUsage = {
  cost_usd_month: null,
  cache_read_tokens_month: null,
  cache_write_tokens_month: null,
  reasoning_tokens_month: null,
};

export interface UsageResponse {
  scope: 'key' | 'user';
  usage: LimitsUsageReport['usage'] & LoggedMonthUsage;
  /** Each limit with how much of it is used: ok, warning, critical or exhausted. */
  limits: Array<LimitsUsageReport['limits'][number] & { status: BudgetStatus }>;
  /** MCP tool limits of the key and its owner, each with how much of it is used. */
  tool_limits: Array<LimitsUsageReport['tool_limits'][number] & { status: BudgetStatus }>;
  expires_at: string | null;
}

const API_KEY_ONLY = 'GET /v1/usage needs an API key';

/**
 * GET /v1/usage for an API key: its limits and usage as the limits engine counts them, the
 * month's cost, prompt-cache and reasoning tokens from the request log (one read), and when the
 * value in use stops working. Counters that cannot be read are a 503 whatever the fail-closed
 * setting; a request log that cannot be read only leaves the month's logged figures null.
 */
export async function usageForKey(principal: Principal, deps: UsageDeps): Promise<UsageResponse> {
  if (principal.kind !== 'api_key') throw new AppError(401, API_KEY_ONLY);
  const nowMs = deps.now();
  let report: LimitsUsageReport;
  try {
    report = await deps.readUsage(limitSubject(principal), nowMs);
  } catch (error) {
    deps.warn('usage counters unavailable', { error: String(error) });
    throw new AppError(503, 'Usage counters cannot be read right now');
  }
  const since = startOfUtcMonth(nowMs);
  const filter: UsageSinceFilter =
    report.scope === 'key' ? { apiKeyId: principal.keyId, since } : { userId: principal.userId, since };
  const [logged, thresholds] = await Promise.all([
    deps.usageSince(filter).then(
      (u): LoggedMonthUsage => ({
        cost_usd_month: roundUsd(u.costUsd),
        cache_read_tokens_month: u.cacheReadTokens,
        cache_write_tokens_month: u.cacheWriteTokens,
        reasoning_tokens_month: u.reasoningTokens,
      }),
      (error: unknown) => {
        deps.warn('request log unavailable for the month usage', { error: String(error) });
        return UNREAD;
      },
    ),
    deps.thresholds().catch(() => DEFAULT_BUDGET_THRESHOLDS),
  ]);
  return {
    scope: report.scope,
    usage: { ...report.usage, ...logged },
    limits: report.limits.map((limit) => ({
      ...limit,
      status: budgetStatus(limit.used, limit.limit, thresholds),
    })),
    tool_limits: report.tool_limits.map((limit) => ({
      ...limit,
      status: budgetStatus(limit.used, limit.limit, thresholds),
    })),
    expires_at: keyExpiry(principal, nowMs),
  };
}

function startOfUtcMonth(nowMs: number): Date {
  const now = new Date(nowMs);
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/**
 * The earlier of the key's expiry and the end of its rotation grace period (/v1/usage's
 * expires_at). A grace period already over no longer limits anything, so it is left out.
 */
function keyExpiry(principal: Extract<Principal, { kind: 'api_key' }>, nowMs: number): string | null {
  const ends = [principal.expiresAt, principal.gracePeriodEndsAt]
    .filter((d): d is Date => d !== null && d.getTime() > nowMs)
    .map((d) => d.getTime());
  return ends.length === 0 ? null : new Date(Math.min(...ends)).toISOString();
}

/**
 * A sum of many small float costs, to the micro-dollar (a millionth of a dollar, finer than
 * any price per token): `2.748495`, not `2.7484950000000503`.
 */
export function roundUsd(usd: number | null): number | null {
  return usd === null ? null : Math.round(usd * 1e6) / 1e6;
}
