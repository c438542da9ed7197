// What the apps use of limits-admin/. Inside shared/src, import the files themselves.
export {
  createToolLimitInputSchema,
  LIMITS_SUBJECTS,
  type LimitsSubject,
  replaceBudgetsInputSchema,
  replaceRulesInputSchema,
  TOOL_LIMITS_SUBJECTS,
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
