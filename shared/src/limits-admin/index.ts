// What the apps use of limits-admin/. Inside shared/src, import the files themselves.
export {
  createGrantInputSchema,
  createRoleInputSchema,
  createTeamInputSchema,
  createToolLimitInputSchema,
  LIMITS_SUBJECTS,
  type LimitsSubject,
  PERMISSIONS,
  type Permission,
  replaceBudgetsInputSchema,
  replaceRulesInputSchema,
  roleIdsInputSchema,
  SCOPE_TYPES,
  TOOL_LIMITS_SUBJECTS,
  teamMembersInputSchema,
  updateRoleInputSchema,
  updateTeamInputSchema,
} from './schemas';
export {
  deleteSubjectBudgets,
  deleteSubjectRules,
  getSubjectBudgets,
  getSubjectRules,
  getUserRoles,
  replaceSubjectBudgets,
  replaceSubjectRules,
  replaceUserRoleIds,
} from './subject-limits';
export { getSubjectUsage } from './subject-usage';
export {
  authorizeToolLimitsAccess,
  createToolLimit,
  deleteToolLimit,
  listAllToolLimits,
  listSubjectToolLimits,
} from './tool-limits';
