// What the apps use of access/. Inside shared/src, import the files themselves.
export { authorizeLimitsAccess, type LimitsSubjectRef } from './access';
export { createGrant, listGrants, revokeGrant } from './permissions';
export { createRole, deleteRole, getRole, listRoles, updateRole } from './roles';
export {
  createGrantInputSchema,
  createRoleInputSchema,
  createTeamInputSchema,
  PERMISSIONS,
  type Permission,
  roleIdsInputSchema,
  SCOPE_TYPES,
  teamMembersInputSchema,
  updateRoleInputSchema,
  updateTeamInputSchema,
} from './schemas';
export {
  createTeam,
  deleteTeam,
  getTeam,
  listTeams,
  replaceMembers,
  replaceRoles,
  updateTeam,
} from './teams';
