import type { BudgetRow, LimitRuleRow, NewBudget, NewLimitRule } from '../db/repos/limits-admin-repo';
import { BUDGET_PERIODS, LIMIT_KINDS, LIMIT_WINDOWS } from '../db/schema/limits';
import type { BudgetInput, LimitRuleInput, LimitsSubject } from './schemas';

export interface LimitRuleView {
  kind: LimitRuleRow['kind'];
  window: LimitRuleRow['window'];
  limit: number;
}

export interface BudgetView {
  period: BudgetRow['period'];
  limit_tokens: number;
}

export interface SubjectRulesView {
  subject_type: LimitsSubject;
  subject_id: string;
  rules: LimitRuleView[];
}

export interface SubjectBudgetsView {
  subject_type: LimitsSubject;
  subject_id: string;
  budgets: BudgetView[];
}

export interface UserRolesView {
  user_id: string;
  role_ids: string[];
}

/** Requests before tokens, then shortest window first: the order the console shows them in. */
export function toRuleViews(rows: Array<Pick<LimitRuleRow, 'kind' | 'window' | 'limit'>>): LimitRuleView[] {
  const rank = (r: LimitRuleView) => LIMIT_KINDS.indexOf(r.kind) * 10 + LIMIT_WINDOWS.indexOf(r.window);
  return rows
    .map((r) => ({ kind: r.kind, window: r.window, limit: r.limit }))
    .sort((a, b) => rank(a) - rank(b));
}

export function toBudgetViews(rows: Array<Pick<BudgetRow, 'period' | 'limitTokens'>>): BudgetView[] {
  return rows
    .map((b) => ({ period: b.period, limit_tokens: b.limitTokens }))
    .sort((a, b) => BUDGET_PERIODS.indexOf(a.period) - BUDGET_PERIODS.indexOf(b.period));
}

export function toNewRules(rules: LimitRuleInput[]): NewLimitRule[] {
  return rules.map((r) => ({ kind: r.kind, window: r.window, limit: r.limit }));
}

export function toNewBudgets(list: BudgetInput[]): NewBudget[] {
  return list.map((b) => ({ period: b.period, limitTokens: b.limit_tokens }));
}

/** Groups rows by subject id. */
export function bySubject<T extends { subjectId: string }>(rows: T[]): Map<string, T[]> {
  const grouped = new Map<string, T[]>();
  for (const row of rows) grouped.set(row.subjectId, [...(grouped.get(row.subjectId) ?? []), row]);
  return grouped;
}
