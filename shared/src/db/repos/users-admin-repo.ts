import { and, asc, count, eq, isNull, ne, sql } from 'drizzle-orm';
import { fetchPage, type PageQuery } from '../paging';
import { refreshTokenFamilies, type UserRole, users } from '../schema';
import type { QueryDb } from '../types';
import type { UserRow } from './users-repo';

/** A page of every user, active or not, oldest first, ties by id. */
export function listUserPage(db: QueryDb, page: PageQuery): Promise<{ rows: UserRow[]; total: number }> {
  return fetchPage(
    page,
    db.select().from(users).orderBy(asc(users.createdAt), asc(users.id)),
    db.select({ total: count() }).from(users),
  );
}

/** Undefined when the email is taken: the unique index on lower(email) decides, so racing creates cannot both win. */
export async function insertUserIfEmailFree(
  db: QueryDb,
  input: { email: string; displayName: string; passwordHash: string; role: UserRole },
): Promise<UserRow | undefined> {
  const [row] = await db.insert(users).values(input).onConflictDoNothing().returning();
  return row;
}

export async function lockUserById(db: QueryDb, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).for('update').limit(1);
  return row;
}

export interface UserPatch {
  displayName?: string;
  role?: UserRole;
  isActive?: boolean;
  passwordHash?: string;
}

export async function updateUserRow(db: QueryDb, id: string, patch: UserPatch): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(users.id, id))
    .returning();
  return row;
}

/**
 * Serialises every change that could remove an admin, so two admins demoting each other
 * at the same moment cannot both see "one other admin left".
 */
export async function lockAdminRoster(db: QueryDb): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext('sluice:admin-roster'))`);
}

export async function countActiveAdminsExcept(db: QueryDb, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.isActive, true), ne(users.id, userId)));
  return row?.n ?? 0;
}

/** Ends every sign-in chain of the user: their refresh tokens are refused from now on. */
export async function revokeUserRefreshFamilies(
  db: QueryDb,
  userId: string,
  reason: string,
): Promise<number> {
  const rows = await db
    .update(refreshTokenFamilies)
    .set({ revokedAt: sql`now()`, revokedReason: reason })
    .where(and(eq(refreshTokenFamilies.userId, userId), isNull(refreshTokenFamilies.revokedAt)))
    .returning({ id: refreshTokenFamilies.id });
  return rows.length;
}
