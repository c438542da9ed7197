import { eq, sql } from 'drizzle-orm';
import { type UserRole, users } from '../schema';
import type { QueryDb } from '../types';

export type UserRow = typeof users.$inferSelect;

export async function findUserByEmail(db: QueryDb, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  return row;
}

export async function findUserById(db: QueryDb, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export async function insertUser(
  db: QueryDb,
  input: { email: string; displayName: string; passwordHash: string | null; role: UserRole },
): Promise<UserRow> {
  const [row] = await db.insert(users).values(input).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function adminExists(db: QueryDb): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).limit(1);
  return row !== undefined;
}
