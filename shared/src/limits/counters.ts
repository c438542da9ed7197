import {
  type Counter,
  type CounterTemplate,
  periodTemplate,
  type Scope,
  slidingTemplate,
} from './counter-templates';
import type { LimitKind, LimitSet, LimitSubject, SubjectLimits } from './definitions';
import type { BudgetPeriod } from './periods';

/**
 * Counter layout of the limits engine. Each scope (a key, a user) has its own counters:
 *   sluice:rl:{scope}:{id}:{requests|tokens}:{window}   sliding windows that have a rule
 *   sluice:rl:{scope}:{id}:req:{day|month id}            requests let through (usage)
 *   sluice:rl:{scope}:{id}:tok:{day|week|month id}       weighted tokens (usage and budgets)
 * A budget checks the very counter that /v1/usage reports, so `used` is what refuses.
 */
export type { Counter, CounterMeta, Scope } from './counter-templates';

export const LIMIT_KEY_PREFIX = 'sluice:rl';
/** Usage counters have no limit; this one can never be reached. */
const UNLIMITED = Number.MAX_SAFE_INTEGER;

export interface ScopeRef {
  scope: Scope;
  id: string;
}

const base = (ref: ScopeRef) => `${LIMIT_KEY_PREFIX}:${ref.scope}:${ref.id}`;

function ruleTemplates(ref: ScopeRef, set: LimitSet, kinds: LimitKind[], cost: boolean): CounterTemplate[] {
  return set.rules
    .filter((rule) => kinds.includes(rule.kind))
    .map((rule) =>
      slidingTemplate({
        label: `${ref.scope}:${rule.kind}/${rule.window}`,
        key: `${base(ref)}:${rule.kind}:${rule.window}`,
        window: rule.window,
        limit: rule.limit,
        cost: cost && rule.kind === 'requests' ? 1 : 0,
        meta: { scope: ref.scope, role: 'rule', kind: rule.kind, window: rule.window },
      }),
    );
}

function budgetTemplate(ref: ScopeRef, period: BudgetPeriod, limitTokens: number): CounterTemplate {
  return periodTemplate({
    label: `${ref.scope}:budget/${period}`,
    keyPrefix: `${base(ref)}:tok:`,
    period,
    limit: limitTokens,
    cost: 0,
    meta: { scope: ref.scope, role: 'budget', kind: 'tokens', window: period, windowSecs: null },
  });
}

function usageTemplate(ref: ScopeRef, unit: 'req' | 'tok', period: 'daily' | 'monthly', cost: number) {
  return periodTemplate({
    label: `${ref.scope}:usage/${unit}/${period}`,
    keyPrefix: `${base(ref)}:${unit}:`,
    period,
    limit: UNLIMITED,
    cost,
    meta: {
      scope: ref.scope,
      role: 'usage',
      kind: unit === 'req' ? 'requests' : 'tokens',
      window: period,
      windowSecs: null,
    },
  });
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

interface Plan {
  subject: LimitSubject;
  admission: CounterTemplate[];
  tokens: CounterTemplate[];
}

/** Templates per definitions object: the isolate's cached definitions are reused request after request. */
const plans = new WeakMap<SubjectLimits, Plan>();

function planFor(subject: LimitSubject, limits: SubjectLimits): Plan {
  const known = plans.get(limits);
  if (known && known.subject.keyId === subject.keyId && known.subject.userId === subject.userId) return known;
  const scopes = scopesOf(subject, limits);
  const plan: Plan = {
    subject,
    // Every request rule (counts 1), every token rule and budget (checked only), and the day
    // and month request counters (count 1, never refuse) of every scope.
    admission: scopes.flatMap(({ ref, set }) => [
      ...ruleTemplates(ref, set, ['requests', 'tokens'], true),
      ...set.budgets.map((b) => budgetTemplate(ref, b.period, b.limitTokens)),
      usageTemplate(ref, 'req', 'daily', 1),
      usageTemplate(ref, 'req', 'monthly', 1),
    ]),
    // After a response: token rules, the day and month token counters, and a weekly budget's.
    tokens: scopes.flatMap(({ ref, set }) => {
      const periods = new Set<BudgetPeriod>(['daily', 'monthly', ...set.budgets.map((b) => b.period)]);
      return [
        ...ruleTemplates(ref, set, ['tokens'], true),
        ...[...periods].map((period) => budgetTemplate(ref, period, UNLIMITED)),
      ];
    }),
  };
  plans.set(limits, plan);
  return plan;
}

/**
 * Admission's counters at nowMs (see planFor). `reserveTokens` (weighted) is what the request
 * may use: every token rule and budget counts it at admission, so requests in flight together
 * cannot pass a limit that fits fewer of them (limits/reservation.ts). A reservation larger
 * than a whole limit counts as that limit: such a request passes only an unused counter.
 */
export function admissionCounters(
  subject: LimitSubject,
  limits: SubjectLimits,
  nowMs: number,
  reserveTokens = 0,
): Counter[] {
  const counters = planFor(subject, limits).admission.map((t) => t.at(nowMs));
  if (reserveTokens > 0) {
    for (const c of counters) {
      if (c.meta.kind === 'tokens') c.cost = Math.min(Math.ceil(reserveTokens), c.limit);
    }
  }
  return counters;
}

/** The counters a response's weighted tokens go on, at nowMs. */
export function tokenCounters(subject: LimitSubject, limits: SubjectLimits, nowMs: number): Counter[] {
  return planFor(subject, limits).tokens.map((t) => t.at(nowMs));
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
    usageTemplate(ref, 'req', 'daily', 0).at(nowMs),
    usageTemplate(ref, 'req', 'monthly', 0).at(nowMs),
    usageTemplate(ref, 'tok', 'daily', 0).at(nowMs),
    usageTemplate(ref, 'tok', 'monthly', 0).at(nowMs),
  ] as const;
  const limits = [
    ...ruleTemplates(ref, set, ['requests', 'tokens'], false).map((t) => t.at(nowMs)),
    ...set.budgets.map((b) => budgetTemplate(ref, b.period, b.limitTokens).at(nowMs)),
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

/**
 * A scope's calendar counters at nowMs, as admission and settlement write them: requests let
 * through per day and month, weighted tokens per day, week and month (what a rebuild restores).
 */
export function calendarCounters(ref: ScopeRef, nowMs: number) {
  return {
    requests: {
      daily: usageTemplate(ref, 'req', 'daily', 0).at(nowMs),
      monthly: usageTemplate(ref, 'req', 'monthly', 0).at(nowMs),
    },
    tokens: {
      daily: budgetTemplate(ref, 'daily', UNLIMITED).at(nowMs),
      weekly: budgetTemplate(ref, 'weekly', UNLIMITED).at(nowMs),
      monthly: budgetTemplate(ref, 'monthly', UNLIMITED).at(nowMs),
    },
  } satisfies { requests: Record<'daily' | 'monthly', Counter>; tokens: Record<BudgetPeriod, Counter> };
}
