import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { Schemas } from '../../api/types';
import { SETTINGS_QUERY } from '../settings/SettingsCategoryForm';
import { USERS_QUERY } from '../users/UserCreateModal';
import { budgetThresholds } from './budget-state';

export const ROLES_QUERY = ['roles'] as const;
export const TEAMS_QUERY = ['teams'] as const;
export const GRANTS_QUERY = ['permission-grants'] as const;

export function useRoles() {
  return useQuery({ queryKey: ROLES_QUERY, queryFn: () => unwrap(api.GET('/api/admin/roles')) });
}

export function useTeams() {
  return useQuery({ queryKey: TEAMS_QUERY, queryFn: () => unwrap(api.GET('/api/admin/teams')) });
}

export function useUsers() {
  return useQuery({ queryKey: USERS_QUERY, queryFn: () => unwrap(api.GET('/api/admin/users')) });
}

/** Select options: users by email, roles and teams by name. */
export function useChoices() {
  const users = useUsers();
  const roles = useRoles();
  const teams = useTeams();
  return {
    users: users.data?.map((u) => ({ value: u.id, label: u.email })) ?? [],
    roles: roles.data?.map((r) => ({ value: r.id, label: r.name })) ?? [],
    teams: teams.data?.map((t) => ({ value: t.id, label: t.name })) ?? [],
  };
}

/** A label for an id from a list of options, or the id itself. */
export function labelOf(options: Array<{ value: string; label: string }>, id: string | null): string {
  if (id === null) return '';
  return options.find((o) => o.value === id)?.label ?? id;
}

/** The budget warning / critical thresholds (settings category budget), for the state badges. */
export function useBudgetThresholds() {
  return useQuery({
    queryKey: [...SETTINGS_QUERY, 'category', 'budget'],
    queryFn: () =>
      unwrap(
        api.GET('/api/admin/settings/category/{category}', { params: { path: { category: 'budget' } } }),
      ),
    select: budgetThresholds,
    retry: false,
  });
}

type Subject = Schemas['SubjectRules']['subject_type'];

/** A key's or user's own rules (GET …/rules); `enabled` false for callers who may not read them. */
export function useSubjectRules(subject: Subject, id: string, enabled = true) {
  return useQuery({
    queryKey: ['limits-rules', subject, id],
    queryFn: () =>
      unwrap(api.GET('/api/admin/limits/{subject}/{id}/rules', { params: { path: { subject, id } } })),
    enabled,
  });
}

/** A key's or user's own budgets (GET …/budgets). */
export function useSubjectBudgets(subject: Subject, id: string, enabled = true) {
  return useQuery({
    queryKey: ['limits-budgets', subject, id],
    queryFn: () =>
      unwrap(api.GET('/api/admin/limits/{subject}/{id}/budgets', { params: { path: { subject, id } } })),
    enabled,
  });
}
