import { type Page, type PageQuery, pageOf } from '../db/paging';
import { writeAudit } from '../db/repos/audit-repo';
import {
  deleteBudgetRows,
  deleteRoleRow,
  deleteRuleRows,
  findRoleById,
  insertRoleIfNameFree,
  listBudgetRows,
  listRolePage,
  listRuleRows,
  replaceBudgetRows,
  replaceRuleRows,
  updateRoleRow,
} from '../db/repos/limits-admin-repo';
import { isUniqueViolation } from '../db/repos/models-admin-repo';
import { deleteSubjectToolLimitRows } from '../db/repos/tool-limits-repo';
import type { QueryDb } from '../db/types';
import { conflict, notFound } from '../http/app-error';
import type { LimitsAdminDeps } from '../limits-admin/commit';
import { bySubject, toNewBudgets, toNewRules } from '../limits-admin/views';
import { commitThenBump } from '../runtime/cache-versions';
import type { AuditActor } from '../users/ports';
import type { CreateRoleInput, UpdateRoleInput } from './schemas';
import { type RoleView, toRoleView } from './views';

/** A page of roles by name, each with its rules and budgets. */
export async function listRoles(db: QueryDb, page: PageQuery): Promise<Page<RoleView>> {
  const { rows, total } = await listRolePage(db, page);
  const ids = rows.map((r) => r.id);
  const [ruleRows, budgetRows] = await Promise.all([
    listRuleRows(db, 'role', ids),
    listBudgetRows(db, 'role', ids),
  ]);
  const rules = bySubject(ruleRows);
  const budgets = bySubject(budgetRows);
  return pageOf(
    page,
    total,
    rows.map((r) => toRoleView(r, rules.get(r.id) ?? [], budgets.get(r.id) ?? [])),
  );
}

/** The role as stored now; also used after a change, inside its transaction. */
export async function getRole(db: QueryDb, id: string): Promise<RoleView> {
  const role = await findRoleById(db, id);
  if (!role) throw notFound('Role not found');
  return toRoleView(role, await listRuleRows(db, 'role', [id]), await listBudgetRows(db, 'role', [id]));
}

export async function createRole(
  deps: LimitsAdminDeps,
  input: CreateRoleInput,
  actor: AuditActor,
): Promise<RoleView> {
  return commitThenBump(deps, ['limits'], async (tx) => {
    const role = await insertRoleIfNameFree(tx, { name: input.name, description: input.description });
    if (!role) throw conflict('Role name already exists');
    await replaceRuleRows(tx, 'role', role.id, toNewRules(input.rules));
    await replaceBudgetRows(tx, 'role', role.id, toNewBudgets(input.budgets));
    await writeAudit(tx, {
      ...actor,
      action: 'role.create',
      resourceType: 'role',
      resourceId: role.id,
      details: { name: role.name, rules: input.rules, budgets: input.budgets },
    });
    return getRole(tx, role.id);
  });
}

/**
 * Name and description; `rules` and `budgets`, when present, replace the lists. Renaming a role
 * changes which users' global role selects it.
 */
export async function updateRole(
  deps: LimitsAdminDeps,
  id: string,
  input: UpdateRoleInput,
  actor: AuditActor,
): Promise<RoleView> {
  return commitThenBump(deps, ['limits'], async (tx) => {
    // The row lock makes concurrent edits of one role (and its lists) apply one after another.
    const before = await findRoleById(tx, id, { lock: true });
    if (!before) throw notFound('Role not found');
    const patch = {
      ...(input.name !== undefined && { name: input.name }),
      ...(input.description !== undefined && { description: input.description }),
    };
    await updateRoleRow(tx, id, patch).catch((error: unknown) => {
      throw isUniqueViolation(error) ? conflict('Role name already exists') : error;
    });
    if (input.rules) await replaceRuleRows(tx, 'role', id, toNewRules(input.rules));
    if (input.budgets) await replaceBudgetRows(tx, 'role', id, toNewBudgets(input.budgets));
    await writeAudit(tx, {
      ...actor,
      action: 'role.update',
      resourceType: 'role',
      resourceId: id,
      details: {
        name: input.name ?? before.name,
        changes: Object.keys(input).sort(),
        ...(input.name !== undefined && input.name !== before.name && { renamed_from: before.name }),
        ...(input.rules && { rules: input.rules }),
        ...(input.budgets && { budgets: input.budgets }),
      },
    });
    return getRole(tx, id);
  });
}

/** Detaches the role from every user and team, and removes its rules, budgets and tool limits. */
export async function deleteRole(deps: LimitsAdminDeps, id: string, actor: AuditActor): Promise<void> {
  await commitThenBump(deps, ['limits'], async (tx) => {
    const role = await deleteRoleRow(tx, id);
    if (!role) throw notFound('Role not found');
    const rulesRemoved = await deleteRuleRows(tx, 'role', id);
    const budgetsRemoved = await deleteBudgetRows(tx, 'role', id);
    const toolLimitsRemoved = await deleteSubjectToolLimitRows(tx, 'role', id);
    await writeAudit(tx, {
      ...actor,
      action: 'role.delete',
      resourceType: 'role',
      resourceId: id,
      details: {
        name: role.name,
        rules_removed: rulesRemoved,
        budgets_removed: budgetsRemoved,
        tool_limits_removed: toolLimitsRemoved,
      },
    });
  });
}
