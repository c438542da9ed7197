import { findApiKeyOwner, listGrantRows, teamsHavingMember } from '../db/repos/limits-admin-repo';
import { findUserById } from '../db/repos/users-repo';
import type { UserRole } from '../db/schema/users';
import type { QueryDb } from '../db/types';
import { forbidden, notFound } from '../http/app-error';
import type { LimitsSubject } from '../limits-admin/schemas';
import type { Permission } from './schemas';

/** Who is asking: the signed-in user and their global role. */
export interface LimitsCaller {
  userId: string;
  role: UserRole;
}

export interface LimitsSubjectRef {
  type: LimitsSubject;
  id: string;
}

/** What a scope is checked against: the user, or the key's owner. */
interface ResolvedSubject {
  type: LimitsSubject;
  /** The user itself, or the key's owner. */
  userId: string;
}

/** 404 when the subject does not exist (a malformed id never reaches here: it is a 404 too). */
async function resolveSubject(db: QueryDb, subject: LimitsSubjectRef): Promise<ResolvedSubject> {
  if (subject.type === 'api_key') {
    const owner = await findApiKeyOwner(db, subject.id);
    if (!owner) throw notFound('API key not found');
    return { type: 'api_key', userId: owner };
  }
  if (!(await findUserById(db, subject.id))) throw notFound('User not found');
  return { type: 'user', userId: subject.id };
}

/**
 * The grant model of the limits endpoints:
 * - admins hold rate_limits:read and rate_limits:write globally, without grants;
 * - a grant's scope decides what it covers: `global` every key and user; `team` the team's
 *   members and the keys they own; `own` the holder's own keys (not users, not even the holder);
 * - rate_limits:write implies rate_limits:read in the same scope.
 *
 * The subject is looked up first, so an unknown one is a 404 for everyone; a known one outside
 * every scope the caller holds is a 403.
 */
export async function authorizeLimitsAccess(
  db: QueryDb,
  caller: LimitsCaller,
  subject: LimitsSubjectRef,
  need: Permission,
): Promise<void> {
  const resolved = await resolveSubject(db, subject);
  if (caller.role === 'admin') return;
  const permissions: Permission[] =
    need === 'rate_limits:read' ? ['rate_limits:read', 'rate_limits:write'] : [need];
  const grants = await listGrantRows(db, { userId: caller.userId, permissions });
  if (grants.some((g) => g.scopeType === 'global')) return;
  if (
    resolved.type === 'api_key' &&
    resolved.userId === caller.userId &&
    grants.some((g) => g.scopeType === 'own')
  )
    return;
  const teamIds = grants.flatMap((g) => (g.scopeType === 'team' && g.scopeId ? [g.scopeId] : []));
  if ((await teamsHavingMember(db, teamIds, resolved.userId)).size > 0) return;
  throw forbidden(
    `${need} is required in a scope covering this ${subject.type === 'api_key' ? 'API key' : 'user'}`,
  );
}
