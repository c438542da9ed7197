import { type Page, type PageQuery, pageOf } from '../db/paging';
import { writeAudit } from '../db/repos/audit-repo';
import {
  deleteGrantRow,
  insertGrantRow,
  listGrantPage,
  listGrantRows,
  lockExistingIds,
  lockGrantsOf,
} from '../db/repos/limits-admin-repo';
import type { Db } from '../db/types';
import { conflict, notFound, unprocessable } from '../http/app-error';
import type { AuditActor } from '../users/ports';
import type { CreateGrantInput } from './schemas';
import { type GrantView, toGrantView } from './views';

/**
 * Grants of rate_limits:read and rate_limits:write (see access.ts for what each scope covers).
 * Gateways never read grants, so changing them does not bump the limits version.
 */

/** A page of grants, oldest first; only those held by `userId` when given. */
export async function listGrants(
  db: Db,
  filter: { userId?: string },
  page: PageQuery,
): Promise<Page<GrantView>> {
  const { rows, total } = await listGrantPage(db, filter, page);
  return pageOf(page, total, rows.map(toGrantView));
}

function invalid(path: string, message: string) {
  return unprocessable(`Invalid request: ${path} ${message}`, [{ path, message }]);
}

/** The audit record of a grant given or taken back: who holds what, where. */
function grantAudit(
  actor: AuditActor,
  action: 'permission.grant' | 'permission.revoke',
  row: { id: string; userId: string; permission: string; scopeType: string; scopeId: string | null },
) {
  const details = {
    user_id: row.userId,
    permission: row.permission,
    scope_type: row.scopeType,
    scope_id: row.scopeId,
  };
  return { ...actor, action, resourceType: 'permission_grant', resourceId: row.id, details };
}

/** 422 when the user or the team does not exist; 409 when the same grant is held already. */
export async function createGrant(db: Db, input: CreateGrantInput, actor: AuditActor): Promise<GrantView> {
  const scopeId = input.scope_type === 'team' ? (input.scope_id ?? null) : null;
  return db.transaction(async (tx) => {
    if (!(await lockExistingIds(tx, 'users', [input.user_id])).has(input.user_id))
      throw invalid('user_id', 'user not found');
    if (scopeId && !(await lockExistingIds(tx, 'teams', [scopeId])).has(scopeId))
      throw invalid('scope_id', 'team not found');
    await lockGrantsOf(tx, input.user_id);
    const held = await listGrantRows(tx, { userId: input.user_id, permissions: [input.permission] });
    if (held.some((g) => g.scopeType === input.scope_type && g.scopeId === scopeId))
      throw conflict('The user already holds this grant');
    const row = await insertGrantRow(tx, {
      userId: input.user_id,
      permission: input.permission,
      scopeType: input.scope_type,
      scopeId,
    });
    await writeAudit(tx, grantAudit(actor, 'permission.grant', row));
    return toGrantView(row);
  });
}

export async function revokeGrant(db: Db, id: string, actor: AuditActor): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await deleteGrantRow(tx, id);
    if (!row) throw notFound('Permission grant not found');
    await writeAudit(tx, grantAudit(actor, 'permission.revoke', row));
  });
}
