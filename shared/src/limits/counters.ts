import type { LimitKind, LimitSet, LimitSubject, SubjectLimits } from './definitions';
import { type BudgetPeriod, bucketMsOf, type CalendarPeriod, calendarPeriod, WINDOW_MS } from './periods';
import { type PreparedCounter, prepareSlidingLimit } from './sliding-window';

/**
 * Counter layout of the limits engine. Each scope (a key, a user) has its own counters:
 *   sluice:rl:{scope}:{id}:{requests|tokens}:{window}   sliding windows that have a rule
 *   sluice:rl:{scope}:{id}:req:{day|month id}            requests let through (usage)
 *   sluice:rl:{scope}:{id}:tok:{day|week|month id}       weighted tokens (usage and budgets)
 * A budget checks the very counter that /v1/usage reports, so `used` is what refuses.
 */
export type Scope = 'key' | 'user';

export const LIMIT_KEY_PREFIX = 'sluice:rl';
/** Usage counters have no limit; this one can never be reached. */
const UNLIMITED = Number.MAX_SAFE_INTEGER;
const DAY_MS = 86_400_000;

/** What a counter is, beside its script arguments: for headers and the usage report. */
export interface CounterMeta {
  scope: Scope;
  role: 'rule' | 'budget' | 'usage';
  kind: LimitKind;
  window: string;
  windowSecs: number | null;
  resetsAt: string | null;
}

export interface Counter extends PreparedCounter {
  meta: CounterMeta;
}

export interface ScopeRef {
  scope: Scope;
  id: string;
}

const base = (ref: ScopeRef) => `${LIMIT_KEY_PREFIX}:${ref.scope}:${ref.id}`;

function calendarCounter(
  ref: ScopeRef,
  unit: 'req' | 'tok',
  period: CalendarPeriod,
  options: { label: string; limit: number; cost: number; meta: CounterMeta },
  nowMs: number,
): Counter {
  const waitMs = period.endMs - nowMs;
  return {
    label: options.label,
    key: `${base(ref)}:${unit}:${period.id}`,
    current: 0,
    bucketsInWindow: 1,
    limit: options.limit,
    cost: options.cost,
    // Kept a day past the period so a slow clock elsewhere still finds it.
    expiryMs: waitMs + DAY_MS,
    resetMs: (newest) => (newest < 0 ? 0 : waitMs),
    waitMs: () => waitMs,
    fallbackWaitMs: waitMs,
    meta: options.meta,
  };
}

function ruleCounters(ref: ScopeRef, set: LimitSet, kinds: LimitKind[], nowMs: number): Counter[] {
  return set.rules
    .filter((rule) => kinds.includes(rule.kind))
    .map((rule) => ({
      ...prepareSlidingLimit(
        {
          label: `${ref.scope}:${rule.kind}/${rule.window}`,
          key: `${base(ref)}:${rule.kind}:${rule.window}`,
          windowMs: WINDOW_MS[rule.window],
          bucketMs: bucketMsOf(rule.window),
          limit: rule.limit,
          cost: rule.kind === 'requests' ? 1 : 0,
        },
        nowMs,
      ),
      meta: {
        scope: ref.scope,
        role: 'rule',
        kind: rule.kind,
        window: rule.window,
        windowSecs: WINDOW_MS[rule.window] / 1000,
        resetsAt: null,
      },
    }));
}

function budgetCounter(ref: ScopeRef, period: BudgetPeriod, limitTokens: number, nowMs: number): Counter {
  const p = calendarPeriod(period, nowMs);
  const meta: CounterMeta = {
    scope: ref.scope,
    role: 'budget',
    kind: 'tokens',
    window: period,
    windowSecs: null,
    resetsAt: p.endIso,
  };
  return calendarCounter(
    ref,
    'tok',
    p,
    { label: `${ref.scope}:budget/${period}`, limit: limitTokens, cost: 0, meta },
    nowMs,
  );
}

function usageCounter(
  ref: ScopeRef,
  unit: 'req' | 'tok',
  period: 'daily' | 'monthly',
  cost: number,
  nowMs: number,
) {
  const p = calendarPeriod(period, nowMs);
  const meta: CounterMeta = {
    scope: ref.scope,
    role: 'usage',
    kind: unit === 'req' ? 'requests' : 'tokens',
    window: period,
    windowSecs: null,
    resetsAt: p.endIso,
  };
  return calendarCounter(
    ref,
    unit,
    p,
    { label: `${ref.scope}:usage/${unit}/${period}`, limit: UNLIMITED, cost, meta },
    nowMs,
  );
}

/** The scopes of a request: the key's own counters (if a key) and the owner's. */
export function scopesOf(
  subject: LimitSubject,
  limits: SubjectLimits,
): Array<{ ref: ScopeRef; set: LimitSet }> {
  const scopes: Array<{ ref: ScopeRef; set: LimitSet }> = [];
  if (subject.keyId !== null && limits.key)
    scopes.push({ ref: { scope: 'key', id: subject.keyId }, set: limits.key });
  scopes.push({ ref: { scope: 'user', id: subject.userId }, set: limits.user });
  return scopes;
}

/**
 * Admission: every request rule (counts 1), every token rule and budget (checked only), and
 * the day and month request counters (count 1, never refuse) of every scope.
 */
export function admissionCounters(subject: LimitSubject, limits: SubjectLimits, nowMs: number): Counter[] {
  return scopesOf(subject, limits).flatMap(({ ref, set }) => [
    ...ruleCounters(ref, set, ['requests', 'tokens'], nowMs),
    ...set.budgets.map((b) => budgetCounter(ref, b.period, b.limitTokens, nowMs)),
    usageCounter(ref, 'req', 'daily', 1, nowMs),
    usageCounter(ref, 'req', 'monthly', 1, nowMs),
  ]);
}

/** After a response: token rules, the day and month token counters, and a weekly budget's. */
export function tokenCounters(subject: LimitSubject, limits: SubjectLimits, nowMs: number): Counter[] {
  return scopesOf(subject, limits).flatMap(({ ref, set }) => {
    const periods = new Set<BudgetPeriod>(['daily', 'monthly', ...set.budgets.map((b) => b.period)]);
    return [
      ...ruleCounters(ref, set, ['tokens'], nowMs),
      ...[...periods].map((period) => budgetCounter(ref, period, UNLIMITED, nowMs)),
    ];
  });
}

/** Counters GET /v1/usage reads (read-only, cost 0): the scope's usage and its limits. */
export interface UsageReadPlan {
  /** Unique by key: a daily or monthly budget is the token usage counter of its period. */
  reads: Counter[];
  usage: { requestsToday: string; requestsMonth: string; tokensToday: string; tokensMonth: string };
  limits: Counter[];
}

export function usageReadPlan(ref: ScopeRef, set: LimitSet, nowMs: number): UsageReadPlan {
  const [requestsToday, requestsMonth, tokensToday, tokensMonth] = [
    usageCounter(ref, 'req', 'daily', 0, nowMs),
    usageCounter(ref, 'req', 'monthly', 0, nowMs),
    usageCounter(ref, 'tok', 'daily', 0, nowMs),
    usageCounter(ref, 'tok', 'monthly', 0, nowMs),
  ] as const;
  const limits = [
    ...ruleCounters(ref, set, ['requests', 'tokens'], nowMs).map((c) => ({ ...c, cost: 0 })),
    ...set.budgets.map((b) => budgetCounter(ref, b.period, b.limitTokens, nowMs)),
  ];
  const reads = new Map<string, Counter>();
  for (const c of [requestsToday, requestsMonth, tokensToday, tokensMonth, ...limits]) {
    if (!reads.has(c.key)) reads.set(c.key, c);
  }
  return {
    reads: [...reads.values()],
    usage: {
      requestsToday: requestsToday.key,
      requestsMonth: requestsMonth.key,
      tokensToday: tokensToday.key,
      tokensMonth: tokensMonth.key,
    },
    limits,
  };
}
