import type { Schemas } from '../../api/types';

export type UserRole = Schemas['AdminUser']['role'];

/** Every user role; the Record keeps this list in step with the API's enum at compile time. */
const ROLE_HELP: Record<UserRole, string> = {
  admin: 'Full access to the console',
  operator: 'Operator',
  user: 'Own keys, usage and MCP tools',
  viewer: 'Viewer',
  service: 'Service account',
};

export const USER_ROLE_OPTIONS = (Object.keys(ROLE_HELP) as UserRole[]).map((role) => ({
  value: role,
  label: role,
}));

export function roleHelp(role: UserRole): string {
  return ROLE_HELP[role];
}
