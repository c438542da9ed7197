// What the apps use of access/. Inside shared/src, import the files themselves.
export { authorizeLimitsAccess, type LimitsSubjectRef } from './access';
export { createGrant, listGrants, revokeGrant } from './permissions';
export { createRole, deleteRole, getRole, listRoles, updateRole } from './roles';
export {
  createTeam,
  deleteTeam,
  getTeam,
  listTeams,
  replaceMembers,
  replaceRoles,
  updateTeam,
} from './teams';
