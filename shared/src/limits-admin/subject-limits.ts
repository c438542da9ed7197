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
import type { QueryDb } from '../db/types';
import { notFound } from '../http/app-error';
import { commitThenBump } from '../stores/cache-versions';
import type { AuditActor } from '../users/ports';
import type { LimitsSubjectRef } from './access';
import { type LimitsAdminDeps, requireExistingIds } from './commit';
import type { ReplaceBudgetsInput, ReplaceRulesInput, RoleIdsInput } from './schemas';
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

function audited(
  actor: AuditActor,
  action: string,
  subject: LimitsSubjectRef,
  details: Record<string, unknown>,
) {
  return { ...actor, action, resourceType: subject.type, resourceId: subject.id, details };
}

/** Replaces the whole rule list; `[]` clears it. */
export async function replaceSubjectRules(
  deps: LimitsAdminDeps,
  subject: LimitsSubjectRef,
  input: ReplaceRulesInput,
  actor: AuditActor,
): Promise<SubjectRulesView> {
  return commitThenBump(deps, ['limits'], async (tx) => {
    await lockSubjectLimits(tx, subject.type, subject.id);
    await replaceRuleRows(tx, subject.type, subject.id, toNewRules(input.rules));
    await writeAudit(tx, audited(actor, 'limits.rules.update', subject, { rules: input.rules }));
    return getSubjectRules(tx, subject);
  });
}

export async function replaceSubjectBudgets(
  deps: LimitsAdminDeps,
  subject: LimitsSubjectRef,
  input: ReplaceBudgetsInput,
  actor: AuditActor,
): Promise<SubjectBudgetsView> {
  return commitThenBump(deps, ['limits'], async (tx) => {
    await lockSubjectLimits(tx, subject.type, subject.id);
    await replaceBudgetRows(tx, subject.type, subject.id, toNewBudgets(input.budgets));
    await writeAudit(tx, audited(actor, 'limits.budgets.update', subject, { budgets: input.budgets }));
    return getSubjectBudgets(tx, subject);
  });
}

export async function deleteSubjectRules(
  deps: LimitsAdminDeps,
  subject: LimitsSubjectRef,
  actor: AuditActor,
): Promise<void> {
  await commitThenBump(deps, ['limits'], async (tx) => {
    await lockSubjectLimits(tx, subject.type, subject.id);
    const removed = await deleteRuleRows(tx, subject.type, subject.id);
    await writeAudit(tx, audited(actor, 'limits.rules.delete', subject, { removed }));
  });
}

export async function deleteSubjectBudgets(
  deps: LimitsAdminDeps,
  subject: LimitsSubjectRef,
  actor: AuditActor,
): Promise<void> {
  await commitThenBump(deps, ['limits'], async (tx) => {
    await lockSubjectLimits(tx, subject.type, subject.id);
    const removed = await deleteBudgetRows(tx, subject.type, subject.id);
    await writeAudit(tx, audited(actor, 'limits.budgets.delete', subject, { removed }));
  });
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
