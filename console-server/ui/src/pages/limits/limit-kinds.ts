import type { ApiError } from '../../api/errors';
import type { Schemas } from '../../api/types';

export type LimitKind = Schemas['LimitRule']['kind'];
export type LimitWindow = Schemas['LimitRule']['window'];
export type BudgetPeriod = Schemas['Budget']['period'];

// Records over the API's enums: a value added to the API fails the UI's typecheck until listed here.
const KIND_LABELS: Record<LimitKind, string> = { requests: 'Requests', tokens: 'Weighted tokens' };
const WINDOW_LABELS: Record<LimitWindow, string> = {
  '1m': '1 minute',
  '5m': '5 minutes',
  '1h': '1 hour',
  '5h': '5 hours',
  '1d': '1 day',
  '1w': '1 week',
};
const PERIOD_LABELS: Record<BudgetPeriod, string> = { daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly' };

const options = <K extends string>(labels: Record<K, string>) =>
  (Object.keys(labels) as K[]).map((value) => ({ value, label: labels[value] }));

export const KIND_OPTIONS = options(KIND_LABELS);
export const WINDOW_OPTIONS = options(WINDOW_LABELS);
export const PERIOD_OPTIONS = options(PERIOD_LABELS);

/** Form rows: a number input holds '' while empty; the API's 422 says what is wrong with it. */
export interface RuleRow {
  kind: LimitKind;
  window: LimitWindow;
  limit: number | string;
}
export interface BudgetRow {
  period: BudgetPeriod;
  limit_tokens: number | string;
}

export const NEW_RULE: RuleRow = { kind: 'requests', window: '1m', limit: '' };
export const NEW_BUDGET: BudgetRow = { period: 'monthly', limit_tokens: '' };

/** Rows as the API wants them; what is typed is sent as is, so the API's validation decides. */
export function rulesBody(rows: RuleRow[]): Schemas['LimitRule'][] {
  return rows.map((r) => ({ ...r, limit: r.limit as number }));
}
export function budgetsBody(rows: BudgetRow[]): Schemas['Budget'][] {
  return rows.map((b) => ({ ...b, limit_tokens: b.limit_tokens as number }));
}

/**
 * One limit as every page words it, like the live usage bars ("requests / 1m"): "250 requests / 1m",
 * "100,000 tokens / monthly". A key's rate_limit_rpm is the rule "<rpm> requests / 1m".
 */
export function ruleText(rule: Schemas['LimitRule']): string {
  return `${rule.limit.toLocaleString()} ${rule.kind} / ${rule.window}`;
}
export function budgetText(budget: Schemas['Budget']): string {
  return `${budget.limit_tokens.toLocaleString()} tokens / ${budget.period}`;
}

/** A key's rate_limit_rpm as the key rule the gateway enforces (with its other rules, the lower wins). */
export function rpmRule(rpm: number): Schemas['LimitRule'] {
  return { kind: 'requests', window: '1m', limit: rpm };
}

export function describeRules(rules: Schemas['LimitRule'][]): string {
  return rules.map(ruleText).join(', ');
}
export function describeBudgets(budgets: Schemas['Budget'][]): string {
  return budgets.map(budgetText).join(', ');
}

/** Issues on list items (user_ids.3) belong to the list's input (user_ids). */
export function listIssueRenames(error: unknown, lists: string[]): Record<string, string> {
  const issues = (error as Partial<ApiError> | null)?.issues ?? [];
  const renames: Record<string, string> = {};
  for (const { path } of issues) {
    const list = lists.find((l) => path.startsWith(`${l}.`));
    if (list) renames[path] = list;
  }
  return renames;
}
