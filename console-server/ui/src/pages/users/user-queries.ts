import { api, unwrapPage } from '../../api/client';
import { ALL_PAGES, fetchAllPages } from '../../api/paging';
import { USERS_QUERY } from './UserCreateModal';

/** Every user (under USERS_QUERY, so a change to users refreshes it too). */
export const ALL_USERS_QUERY = [...USERS_QUERY, ALL_PAGES] as const;

/** Every user, page by page: for pickers and for naming the users behind ids. */
export function fetchAllUsers() {
  return fetchAllPages((page) => unwrapPage(api.GET('/api/admin/users', { params: { query: page } }), page));
}
