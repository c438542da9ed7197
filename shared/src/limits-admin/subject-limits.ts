import type { LimitsSubjectRef } from '../access/access';
import type { RoleIdsInput } from '../access/schemas';
import { writeAudit } from '../db/repos/audit-repo';
import {
  deleteBudgetRows,
  deleteRuleRows,
  listBudgetRows,
  listRuleRows,
  listUserRoleIds,
  lockSubjectLimits,
  replaceBudgetRows,
  replaceRuleRows,
  replaceUserRoles,
} from '../db/repos/limits-admin-repo';
import { findUserById } from '../db/repos/users-repo';
import type { Db, QueryDb } from '../db/types';
import { notFound } from '../http/app-error';
import { commitThenBump } from '../runtime/cache-versions';
import type { AuditActor } from '../users/ports';
import { type LimitsAdminDeps, requireExistingIds } from './commit';
import type { ReplaceBudgetsInput, ReplaceRulesInput } from './schemas';
import {
  type SubjectBudgetsView,
  type SubjectRulesView,
  toBudgetViews,
  toNewBudgets,
  toNewRules,
  toRuleViews,
  type UserRolesView,
} from './views';

/**
 * Rules and budgets of one API key or user (for a user: their overrides, applied after the
 * limits of their roles). Callers check first, with authorizeLimitsAccess, that the subject
 * exists and that the caller may read (rate_limits:read) or change (rate_limits:write) it.
 */

export async function getSubjectRules(db: QueryDb, subject: LimitsSubjectRef): Promise<SubjectRulesView> {
  const rows = await listRuleRows(db, subject.type, [subject.id]);
  return { subject_type: subject.type, subject_id: subject.id, rules: toRuleViews(rows) };
}

export async function getSubjectBudgets(db: QueryDb, subject: LimitsSubjectRef): Promise<SubjectBudgetsView> {
  const rows = await listBudgetRows(db, subject.type, [subject.id]);
  return { subject_type: subject.type, subject_id: subject.id, budgets: toBudgetViews(rows) };
}

/**
 * One change to a subject's rules or budgets: under the subject's lock, audited in the same
 * transaction, then the limits caches bumped. `change` answers the audit details and the result.
 */
function changeSubjectLimits<T>(
  deps: LimitsAdminDeps,
  subject: LimitsSubjectRef,
  actor: AuditActor,
  action: string,
  change: (tx: Db) => Promise<{ details: Record<string, unknown>; result: T }>,
): Promise<T> {
  return commitThenBump(deps, ['limits'], async (tx) => {
    await lockSubjectLimits(tx, subject.type, subject.id);
    const { details, result } = await change(tx);
    await writeAudit(tx, { ...actor, action, resourceType: subject.type, resourceId: subject.id, details });
    return result;
  });
}

/** Replaces the whole rule list; `[]` clears it. */
export function replaceSubjectRules(
  deps: LimitsAdminDeps,
  subject: LimitsSubjectRef,
  input: ReplaceRulesInput,
  actor: AuditActor,
): Promise<SubjectRulesView> {
  return changeSubjectLimits(deps, subject, actor, 'limits.rules.update', async (tx) => {
    await replaceRuleRows(tx, subject.type, subject.id, toNewRules(input.rules));
    return { details: { rules: input.rules }, result: await getSubjectRules(tx, subject) };
  });
}

export function replaceSubjectBudgets(
  deps: LimitsAdminDeps,
  subject: LimitsSubjectRef,
  input: ReplaceBudgetsInput,
  actor: AuditActor,
): Promise<SubjectBudgetsView> {
  return changeSubjectLimits(deps, subject, actor, 'limits.budgets.update', async (tx) => {
    await replaceBudgetRows(tx, subject.type, subject.id, toNewBudgets(input.budgets));
    return { details: { budgets: input.budgets }, result: await getSubjectBudgets(tx, subject) };
  });
}

export function deleteSubjectRules(
  deps: LimitsAdminDeps,
  subject: LimitsSubjectRef,
  actor: AuditActor,
): Promise<void> {
  return changeSubjectLimits(deps, subject, actor, 'limits.rules.delete', async (tx) => ({
    details: { removed: await deleteRuleRows(tx, subject.type, subject.id) },
    result: undefined,
  }));
}

export function deleteSubjectBudgets(
  deps: LimitsAdminDeps,
  subject: LimitsSubjectRef,
  actor: AuditActor,
): Promise<void> {
  return changeSubjectLimits(deps, subject, actor, 'limits.budgets.delete', async (tx) => ({
    details: { removed: await deleteBudgetRows(tx, subject.type, subject.id) },
    result: undefined,
  }));
}

/** Extra global roles of a user, besides the role named like users.role (admin only). */
export async function getUserRoles(db: QueryDb, userId: string): Promise<UserRolesView> {
  if (!(await findUserById(db, userId))) throw notFound('User not found');
  return { user_id: userId, role_ids: await listUserRoleIds(db, userId) };
}

export async function replaceUserRoleIds(
  deps: LimitsAdminDeps,
  userId: string,
  input: RoleIdsInput,
  actor: AuditActor,
): Promise<UserRolesView> {
  return commitThenBump(deps, ['limits'], async (tx) => {
    const user = await findUserById(tx, userId);
    if (!user) throw notFound('User not found');
    await lockSubjectLimits(tx, 'user', userId);
    await requireExistingIds(tx, 'roles', input.role_ids, 'role_ids');
    const roleIds = [...new Set(input.role_ids)];
    await replaceUserRoles(tx, userId, roleIds);
    await writeAudit(tx, {
      ...actor,
      action: 'user.roles.update',
      resourceType: 'user',
      resourceId: userId,
      details: { email: user.email, role_ids: roleIds },
    });
    return { user_id: userId, role_ids: await listUserRoleIds(tx, userId) };
  });
}
