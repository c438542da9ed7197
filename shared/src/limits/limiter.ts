import { createVersionBoard } from '../runtime/version-board';
import { directScripts } from '../stores/lua-script';
import type { RedisPort } from '../stores/redis-port';
import { detached } from '../util/background';
import { withDeadline } from '../util/deadline';
import { type Counter, type Scope, usageReadPlan } from './counters';
import { isEmpty, type LimitSubject, type SubjectLimits } from './definitions';
import { createGate } from './gate';
import { addToCounters, checkCounters } from './sliding-window';
import { tokenAdditions } from './token-tally';
import { type ToolLimitUsage, toolUsageReads, toToolLimitUsage } from './tool-gate';

/**
 * The limits engine as the gateway uses it (docs/limits.md, Limits). Admission is one Lua call over
 * every counter of the key and its owner; definitions come from a per-isolate cache that a
 * Redis version key invalidates; repeat offenders are refused from memory until the instant
 * their limit frees. Every store call has a deadline.
 */
export type LimitAdmission =
  | { ok: true; headers: Record<string, string> }
  | { ok: false; label: string; retryAfterSeconds: number };

/** What the limits engine reports for GET /v1/usage . */
export interface LimitsUsageReport {
  scope: 'key' | 'user';
  usage: { requests_today: number; requests_month: number; tokens_today: number; tokens_month: number };
  limits: Array<{
    scope: 'key' | 'user';
    kind: 'requests' | 'tokens';
    window: string;
    window_secs: number | null;
    limit: number;
    used: number;
    resets_at: string | null;
  }>;
  /** The caller's MCP tool limits (its key's and its owner's), least left first. */
  tool_limits: ToolLimitUsage[];
}

export interface Limiter {
  admit(subject: LimitSubject, nowMs: number, options: { failClosed: boolean }): Promise<LimitAdmission>;
  /** Never throws: runs after the response, in waitUntil. */
  addTokens(subject: LimitSubject, weightedTokens: number, nowMs: number): Promise<void>;
  /** Throws when definitions or counters cannot be read (GET /v1/usage answers 503). */
  readUsage(subject: LimitSubject, nowMs: number): Promise<LimitsUsageReport>;
}

export interface LimiterDeps {
  redis: RedisPort;
  /** Cached definitions of (key, owner); see createLimitsCache. */
  limitsOf(subject: LimitSubject): Promise<SubjectLimits>;
  timeoutMs: number;
  warn(message: string, fields?: Record<string, unknown>): void;
}

export { FAIL_CLOSED_RETRY_SECONDS } from './gate';

export function createLimiter(deps: LimiterDeps): Limiter {
  const load = (subject: LimitSubject) =>
    withDeadline(deps.limitsOf(subject), deps.timeoutMs, 'limits store');
  const scripts = directScripts(deps.redis);
  const check = (counters: Counter[], nowMs: number) =>
    withDeadline(checkCounters(scripts, counters, nowMs), deps.timeoutMs, 'Redis');
  // The gateway's own admission, without cache versions, response cache or route caps.
  const gate = createGate({
    run: (call) => withDeadline(scripts(call), deps.timeoutMs, 'Redis'),
    board: createVersionBoard({ parts: [], read: async () => [], timeoutMs: deps.timeoutMs }),
    limitsOf: (subject) => load(subject),
    onRefusal: () => undefined,
    warn: deps.warn,
  });

  return {
    async admit(subject, nowMs, { failClosed }) {
      const decision = await gate.admit({
        subject,
        route: null,
        cacheKey: null,
        failClosed,
        checkVersions: false,
        nowMs,
        background: detached,
      });
      if (decision.kind === 'admitted') return { ok: true, headers: decision.headers };
      if (decision.kind === 'refused')
        return { ok: false, label: decision.label, retryAfterSeconds: decision.retryAfterSeconds };
      throw new Error('limiter: a board without parts cannot be stale');
    },

    async addTokens(subject, weightedTokens, nowMs) {
      if (!(weightedTokens > 0)) return;
      try {
        const entries = tokenAdditions(subject, await load(subject), null, weightedTokens, nowMs);
        await withDeadline(addToCounters(scripts, entries), deps.timeoutMs, 'Redis');
      } catch (error) {
        deps.warn('tokens not counted on limits', { error: String(error), weightedTokens });
      }
    },

    async readUsage(subject, nowMs) {
      const limits = await load(subject);
      const scope: Scope = subject.keyId !== null && !isEmpty(limits.key) ? 'key' : 'user';
      const set = scope === 'key' && limits.key ? limits.key : limits.user;
      const id = scope === 'key' && subject.keyId !== null ? subject.keyId : subject.userId;
      const plan = usageReadPlan({ scope, id }, set, nowMs);
      // Tool limits count on counters of their own: read in the same script call.
      const tools = toolUsageReads(subject, limits, nowMs);
      const reads = [...plan.reads, ...tools.map((t) => t.counter)];
      const result = await check(reads, nowMs);
      const used = new Map(reads.map((c, i) => [c.key, result.states[i]?.used ?? 0]));
      const usedOf = (key: string) => used.get(key) ?? 0;
      const limitsView = plan.limits.map((c) => ({
        scope,
        kind: c.meta.kind,
        window: c.meta.window,
        window_secs: c.meta.windowSecs,
        limit: c.limit,
        used: usedOf(c.key),
        resets_at: c.meta.resetsAt,
      }));
      return {
        scope,
        usage: {
          requests_today: usedOf(plan.usage.requestsToday),
          requests_month: usedOf(plan.usage.requestsMonth),
          tokens_today: usedOf(plan.usage.tokensToday),
          tokens_month: usedOf(plan.usage.tokensMonth),
        },
        limits: sortLeastLeftFirst(limitsView),
        tool_limits: sortLeastLeftFirst(tools.map((t) => toToolLimitUsage(t, usedOf(t.counter.key)))),
      };
    },
  };
}

/**
 * GET /v1/usage lists the limits least left first. Requests and tokens are not comparable
 * amounts, so "least left" is the share of the limit still free; ties go to the smaller
 * absolute remainder.
 */
export function sortLeastLeftFirst<T extends { limit: number; used: number }>(limits: T[]): T[] {
  const left = (l: T) => Math.max(0, l.limit - l.used);
  const share = (l: T) => (l.limit > 0 ? left(l) / l.limit : 0);
  return [...limits].sort((a, b) => share(a) - share(b) || left(a) - left(b));
}
