import { and, eq, isNull, sql } from 'drizzle-orm';
import { refreshTokenFamilies, refreshTokens } from '../schema';
import type { QueryDb } from '../types';

export async function createFamily(db: QueryDb, userId: string): Promise<string> {
  const [row] = await db
    .insert(refreshTokenFamilies)
    .values({ userId })
    .returning({ id: refreshTokenFamilies.id });
  if (!row) throw new Error('insert returned no row');
  return row.id;
}

export async function insertRefreshToken(
  db: QueryDb,
  input: { familyId: string; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await db.insert(refreshTokens).values(input);
}

export interface LockedRefreshToken {
  id: string;
  familyId: string;
  userId: string;
  expiresAt: Date;
  usedAt: Date | null;
  familyRevokedAt: Date | null;
}

/** Locks the token row so two concurrent refreshes with one token cannot both succeed. */
export async function lockRefreshToken(
  db: QueryDb,
  tokenHash: string,
): Promise<LockedRefreshToken | undefined> {
  const [row] = await db
    .select({
      id: refreshTokens.id,
      familyId: refreshTokens.familyId,
      userId: refreshTokenFamilies.userId,
      expiresAt: refreshTokens.expiresAt,
      usedAt: refreshTokens.usedAt,
      familyRevokedAt: refreshTokenFamilies.revokedAt,
    })
    .from(refreshTokens)
    .innerJoin(refreshTokenFamilies, eq(refreshTokenFamilies.id, refreshTokens.familyId))
    .where(eq(refreshTokens.tokenHash, tokenHash))
    .for('update', { of: refreshTokens })
    .limit(1);
  return row;
}

export async function markRefreshTokenUsed(db: QueryDb, id: string): Promise<void> {
  await db.update(refreshTokens).set({ usedAt: sql`now()` }).where(eq(refreshTokens.id, id));
}

export async function revokeFamily(db: QueryDb, familyId: string, reason: string): Promise<void> {
  await db
    .update(refreshTokenFamilies)
    .set({ revokedAt: sql`now()`, revokedReason: reason })
    .where(and(eq(refreshTokenFamilies.id, familyId), isNull(refreshTokenFamilies.revokedAt)));
}
