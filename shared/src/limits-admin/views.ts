import type {
  BudgetRow,
  GrantRow,
  LimitRuleRow,
  NewBudget,
  NewLimitRule,
  RoleRow,
  TeamRow,
} from '../db/repos/limits-admin-repo';
import { BUDGET_PERIODS, LIMIT_KINDS, LIMIT_WINDOWS } from '../db/schema/limits';
import type { BudgetInput, LimitRuleInput, LimitsSubject, Permission, ScopeType } from './schemas';

export interface LimitRuleView {
  kind: LimitRuleRow['kind'];
  window: LimitRuleRow['window'];
  limit: number;
}

export interface BudgetView {
  period: BudgetRow['period'];
  limit_tokens: number;
}

export interface RoleView {
  id: string;
  name: string;
  description: string | null;
  rules: LimitRuleView[];
  budgets: BudgetView[];
  created_at: string;
  updated_at: string;
}

export interface TeamView {
  id: string;
  name: string;
  description: string | null;
  member_ids: string[];
  role_ids: string[];
  created_at: string;
  updated_at: string;
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

export interface GrantView {
  id: string;
  user_id: string;
  permission: Permission;
  scope_type: ScopeType;
  scope_id: string | null;
  created_at: string;
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

export function toRoleView(role: RoleRow, rules: LimitRuleRow[], budgets: BudgetRow[]): RoleView {
  return {
    id: role.id,
    name: role.name,
    description: role.description,
    rules: toRuleViews(rules),
    budgets: toBudgetViews(budgets),
    created_at: role.createdAt.toISOString(),
    updated_at: role.updatedAt.toISOString(),
  };
}

export function toTeamView(team: TeamRow, memberIds: string[], roleIds: string[]): TeamView {
  return {
    id: team.id,
    name: team.name,
    description: team.description,
    member_ids: memberIds,
    role_ids: roleIds,
    created_at: team.createdAt.toISOString(),
    updated_at: team.updatedAt.toISOString(),
  };
}

export function toGrantView(row: GrantRow): GrantView {
  return {
    id: row.id,
    user_id: row.userId,
    permission: row.permission,
    scope_type: row.scopeType,
    scope_id: row.scopeId,
    created_at: row.createdAt.toISOString(),
  };
}
