import type { Principal } from '../auth/gateway/principal';
import type { BudgetPeriod, LimitWindow } from './periods';
import { effectiveToolLimits, keyToolLimits, type ToolLimitDef, type ToolLimitSets } from './tool-limits';

export type LimitKind = 'requests' | 'tokens';

export interface RuleDef {
  kind: LimitKind;
  window: LimitWindow;
  limit: number;
}

export interface BudgetDef {
  period: BudgetPeriod;
  limitTokens: number;
}

/** The limits of one subject (a key, or a user's effective limits). */
export interface LimitSet {
  rules: RuleDef[];
  budgets: BudgetDef[];
}

/** Whose counters a request runs on: a key (its own, across rotations) and its owner. */
export interface LimitSubject {
  keyId: string | null;
  userId: string;
  /** The key's `rate_limit_rpm`, counted as a requests/1m rule; null for none or JWT. */
  rateLimitRpm: number | null;
}

/** The key's own limits and its owner's; console users (JWT) have only their own. */
export function limitSubject(principal: Principal): LimitSubject {
  if (principal.kind !== 'api_key') return { keyId: null, userId: principal.userId, rateLimitRpm: null };
  return { keyId: principal.keyId, userId: principal.userId, rateLimitRpm: principal.rateLimitRpm };
}

/** A request's limits: the key's own (null for a JWT caller) and the owner's effective ones. */
export interface SubjectLimits {
  key: LimitSet | null;
  user: LimitSet;
  /** The names of the user's teams (the request trace's sluice.teams), loaded with their roles. */
  teams?: string[];
  /** Limits on MCP tool calls, loaded with the rest (tool-limits.ts). */
  tools?: ToolLimitSets;
}

/** Rows as stored: rules and budgets of the user's roles, of the user, and of the key. */
export interface StoredLimits {
  roleRules: RuleDef[];
  roleBudgets: BudgetDef[];
  userRules: RuleDef[];
  userBudgets: BudgetDef[];
  keyRules: RuleDef[];
  keyBudgets: BudgetDef[];
  /** The names of the user's teams. */
  teams?: string[];
  /** Tool limits of the user's roles, of the user and of the key. */
  roleTools?: ToolLimitDef[];
  userTools?: ToolLimitDef[];
  keyTools?: ToolLimitDef[];
}

const ruleId = (r: RuleDef) => `${r.kind}/${r.window}`;

function mostRestrictiveRules(rules: RuleDef[]): Map<string, RuleDef> {
  const merged = new Map<string, RuleDef>();
  for (const rule of rules) {
    const held = merged.get(ruleId(rule));
    if (!held || rule.limit < held.limit) merged.set(ruleId(rule), { ...rule });
  }
  return merged;
}

function mostRestrictiveBudgets(budgets: BudgetDef[]): Map<BudgetPeriod, BudgetDef> {
  const merged = new Map<BudgetPeriod, BudgetDef>();
  for (const budget of budgets) {
    const held = merged.get(budget.period);
    if (!held || budget.limitTokens < held.limitTokens) merged.set(budget.period, { ...budget });
  }
  return merged;
}

/**
 * The owner's effective limits: their roles (global and team-attached) merged most-restrictive, then
 * the user's own overrides, which replace the role value for the same kind and window (an
 * override may loosen as well as tighten).
 */
export function effectiveUserLimits(
  stored: Pick<StoredLimits, 'roleRules' | 'roleBudgets' | 'userRules' | 'userBudgets'>,
): LimitSet {
  const rules = mostRestrictiveRules(stored.roleRules);
  for (const rule of stored.userRules) rules.set(ruleId(rule), { ...rule });
  const budgets = mostRestrictiveBudgets(stored.roleBudgets);
  for (const budget of stored.userBudgets) budgets.set(budget.period, { ...budget });
  return { rules: [...rules.values()], budgets: [...budgets.values()] };
}

/** The key's own rules and budgets; rate_limit_rpm joins them as requests/1m (the lower wins). */
export function keyLimits(
  stored: Pick<StoredLimits, 'keyRules' | 'keyBudgets'>,
  rateLimitRpm: number | null,
): LimitSet {
  const rpm: RuleDef[] =
    rateLimitRpm === null ? [] : [{ kind: 'requests', window: '1m', limit: rateLimitRpm }];
  const rules = mostRestrictiveRules([...stored.keyRules, ...rpm]);
  return { rules: [...rules.values()], budgets: [...mostRestrictiveBudgets(stored.keyBudgets).values()] };
}

export function subjectLimits(stored: StoredLimits, subject: LimitSubject): SubjectLimits {
  return {
    key: subject.keyId === null ? null : keyLimits(stored, subject.rateLimitRpm),
    user: effectiveUserLimits(stored),
    teams: stored.teams ?? [],
    tools: {
      key: subject.keyId === null ? null : keyToolLimits(stored.keyTools ?? []),
      user: effectiveToolLimits(stored.roleTools ?? [], stored.userTools ?? []),
    },
  };
}

export function isEmpty(set: LimitSet | null): boolean {
  return set === null || (set.rules.length === 0 && set.budgets.length === 0);
}
