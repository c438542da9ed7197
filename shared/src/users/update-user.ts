import { invalidateKeyHashes } from '../auth/api-keys/auth-cache';
import { selectOwnerKeyHashes } from '../db/repos/api-keys-repo';
import { writeAudit } from '../db/repos/audit-repo';
import {
  countActiveAdminsExcept,
  lockAdminRoster,
  lockUserById,
  revokeUserRefreshFamilies,
  type UserPatch,
  updateUserRow,
} from '../db/repos/users-admin-repo';
import type { UserRow } from '../db/repos/users-repo';
import type { Db } from '../db/types';
import { conflict, notFound } from '../http/app-error';
import { type CachePart, commitThenBump } from '../runtime/cache-versions';
import type { AuditActor, UsersAdminDeps } from './ports';
import type { UpdateUserInput } from './schemas';
import { type AdminUserView, toAdminUserView } from './views';

/** Refuses a change that would leave no active admin (nobody could administer the system). */
async function assertAdminRemains(tx: Db, user: UserRow, next: { role: string; isActive: boolean }) {
  const removesAdmin = user.role === 'admin' && user.isActive && (next.role !== 'admin' || !next.isActive);
  if (removesAdmin && (await countActiveAdminsExcept(tx, user.id)) === 0) {
    throw conflict('Cannot demote or deactivate the last active admin');
  }
}

function toPatch(input: UpdateUserInput, passwordHash: string | undefined): UserPatch {
  const patch: UserPatch = {};
  if (input.display_name !== undefined) patch.displayName = input.display_name;
  if (input.role !== undefined) patch.role = input.role;
  if (input.is_active !== undefined) patch.isActive = input.is_active;
  if (passwordHash !== undefined) patch.passwordHash = passwordHash;
  return patch;
}

/** Applies a patch under the admin-roster lock; returns the rows before and after. */
async function applyUserPatch(
  tx: Db,
  id: string,
  patch: UserPatch,
): Promise<{ before: UserRow; after: UserRow; revokedSessions: number }> {
  await lockAdminRoster(tx);
  const before = await lockUserById(tx, id);
  if (!before) throw notFound('User not found');
  await assertAdminRemains(tx, before, {
    role: patch.role ?? before.role,
    isActive: patch.isActive ?? before.isActive,
  });
  const after = await updateUserRow(tx, id, patch);
  if (!after) throw notFound('User not found');
  // A deactivated user or a reset password ends every existing sign-in chain.
  const endsSessions = patch.isActive === false || patch.passwordHash !== undefined;
  const reason = patch.isActive === false ? 'user deactivated' : 'password changed';
  const revokedSessions = endsSessions ? await revokeUserRefreshFamilies(tx, id, reason) : 0;
  return { before, after, revokedSessions };
}

/**
 * The gateway caches each key's auth record together with its owner's role and active flag.
 * Called last inside the transaction: when Redis is down the change rolls back (503) instead
 * of leaving the owner's keys cached as they were.
 */
async function invalidateOwnerKeys(tx: Db, deps: UsersAdminDeps, before: UserRow, after: UserRow) {
  if (before.isActive === after.isActive && before.role === after.role) return;
  const keys = await selectOwnerKeyHashes(tx, after.id);
  await invalidateKeyHashes(
    deps.redis,
    keys.flatMap((k) => [k.keyHash, k.previousKeyHash]),
  );
}

/**
 * What the gateways cache of a user: the owner's role and active flag travel with each key
 * record, and the role names the user's global limits role.
 */
function changedCaches({ before, after }: { before: UserRow; after: UserRow }): CachePart[] {
  const parts: CachePart[] = [];
  if (before.isActive !== after.isActive || before.role !== after.role) parts.push('keys');
  if (before.role !== after.role) parts.push('limits');
  return parts;
}

export async function updateUser(
  deps: UsersAdminDeps,
  id: string,
  input: UpdateUserInput,
  actor: AuditActor,
): Promise<AdminUserView> {
  const passwordHash = input.password === undefined ? undefined : await deps.passwords.hash(input.password);
  const { view } = await commitThenBump(deps, changedCaches, async (tx) => {
    const result = await applyUserPatch(tx, id, toPatch(input, passwordHash));
    await writeAudit(tx, {
      ...actor,
      action: 'user.update',
      resourceType: 'user',
      resourceId: id,
      // Field names only for the password; values for the rest.
      details: {
        changes: Object.keys(input).sort(),
        ...(input.role !== undefined && { role: { from: result.before.role, to: result.after.role } }),
        ...(input.is_active !== undefined && { is_active: result.after.isActive }),
        revoked_sessions: result.revokedSessions,
      },
    });
    await invalidateOwnerKeys(tx, deps, result.before, result.after);
    return { view: toAdminUserView(result.after), ...result };
  });
  return view;
}

/** DELETE keeps the row (audit history and key ownership point at it) and deactivates it. */
export async function deactivateUser(deps: UsersAdminDeps, id: string, actor: AuditActor): Promise<void> {
  await commitThenBump(deps, changedCaches, async (tx) => {
    const result = await applyUserPatch(tx, id, { isActive: false });
    await writeAudit(tx, {
      ...actor,
      action: 'user.delete',
      resourceType: 'user',
      resourceId: id,
      details: {
        email: result.after.email,
        was_active: result.before.isActive,
        revoked_sessions: result.revokedSessions,
      },
    });
    await invalidateOwnerKeys(tx, deps, result.before, result.after);
    return result;
  });
}
