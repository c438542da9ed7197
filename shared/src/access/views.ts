import type { BudgetRow, GrantRow, LimitRuleRow, RoleRow, TeamRow } from '../db/repos/limits-admin-repo';
import { type BudgetView, type LimitRuleView, toBudgetViews, toRuleViews } from '../limits-admin/views';
import type { Permission, ScopeType } from './schemas';

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

export interface GrantView {
  id: string;
  user_id: string;
  permission: Permission;
  scope_type: ScopeType;
  scope_id: string | null;
  created_at: string;
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
