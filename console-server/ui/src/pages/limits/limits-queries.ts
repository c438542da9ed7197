import { useQuery } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../api/client';
import { PAGE_MAX, type PageParams, useAllPages, usePagedQuery } from '../../api/paging';
import type { Schemas } from '../../api/types';
import { SETTINGS_QUERY } from '../settings/SettingsCategoryForm';
import { ALL_USERS_QUERY, fetchAllUsers } from '../users/user-queries';
import { budgetThresholds } from './budget-state';

export const ROLES_QUERY = ['roles'] as const;
export const TEAMS_QUERY = ['teams'] as const;
export const GRANTS_QUERY = ['permission-grants'] as const;

const fetchRoles = (page: PageParams) =>
  unwrapPage(api.GET('/api/admin/roles', { params: { query: page } }), page);
const fetchTeams = (page: PageParams) =>
  unwrapPage(api.GET('/api/admin/teams', { params: { query: page } }), page);

/** A page of roles, for the roles tab. */
export function useRolePage() {
  return usePagedQuery(ROLES_QUERY, fetchRoles);
}

/** A page of teams, for the teams tab. */
export function useTeamPage() {
  return usePagedQuery(TEAMS_QUERY, fetchTeams);
}

/** Every user: a picker offers any of them, whichever page of the users list it is on. */
export function useUsers() {
  return useQuery({ queryKey: ALL_USERS_QUERY, queryFn: fetchAllUsers });
}

/** Select options, every one of each list: users by email, roles and teams by name. */
export function useChoices() {
  const users = useUsers();
  const roles = useAllPages(ROLES_QUERY, fetchRoles);
  const teams = useAllPages(TEAMS_QUERY, fetchTeams);
  return {
    users: users.data?.map((u) => ({ value: u.id, label: u.email })) ?? [],
    roles: roles.data?.map((r) => ({ value: r.id, label: r.name })) ?? [],
    teams: teams.data?.map((t) => ({ value: t.id, label: t.name })) ?? [],
  };
}

/** A key search offers its first 200 matches; the total counts every match. */
const KEY_SEARCH_PAGE = { offset: 0, limit: PAGE_MAX };

/**
 * Any user's keys whose name, prefix or owner email contains `q` (GET /api/admin/keys). The
 * key-limits tab and the tool-limit form read the same cache entry per search, so both fetch it
 * here: a second fetcher caching another shape under that key would break the other picker.
 */
export function useAdminKeySearch(q: string) {
  return useQuery({
    queryKey: ['admin-keys', q],
    queryFn: () =>
      unwrapPage(
        api.GET('/api/admin/keys', { params: { query: { ...KEY_SEARCH_PAGE, ...(q ? { q } : {}) } } }),
        KEY_SEARCH_PAGE,
      ),
    placeholderData: (previous) => previous,
  });
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
