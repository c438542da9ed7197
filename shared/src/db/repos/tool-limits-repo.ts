import { and, asc, eq, inArray } from 'drizzle-orm';
import { apiKeys } from '../schema/api-keys';
import { roles } from '../schema/limits';
import { toolLimits } from '../schema/tool-limits';
import { users } from '../schema/users';
import type { QueryDb } from '../types';
import type { LimitSubjectType } from './limits-admin-repo';

export type ToolLimitRow = typeof toolLimits.$inferSelect;
export type NewToolLimit = Pick<ToolLimitRow, 'tool' | 'kind' | 'window' | 'limit'>;

/** A subject's tool limits; every subject's when none is given (the console's overview). */
export function listToolLimitRows(
  db: QueryDb,
  subject?: { type: LimitSubjectType; id: string },
): Promise<ToolLimitRow[]> {
  return db
    .select()
    .from(toolLimits)
    .where(
      subject
        ? and(eq(toolLimits.subjectType, subject.type), eq(toolLimits.subjectId, subject.id))
        : undefined,
    )
    .orderBy(asc(toolLimits.tool), asc(toolLimits.createdAt));
}

/** Undefined when the subject has a limit of that tool, kind and window already (the unique index decides). */
export async function insertToolLimitIfFree(
  db: QueryDb,
  subject: { type: LimitSubjectType; id: string },
  limit: NewToolLimit,
): Promise<ToolLimitRow | undefined> {
  const [row] = await db
    .insert(toolLimits)
    .values({ ...limit, subjectType: subject.type, subjectId: subject.id })
    .onConflictDoNothing()
    .returning();
  return row;
}

/** The removed row; undefined when the subject has no limit of that id. */
export async function deleteToolLimitRow(
  db: QueryDb,
  subject: { type: LimitSubjectType; id: string },
  id: string,
): Promise<ToolLimitRow | undefined> {
  const [row] = await db
    .delete(toolLimits)
    .where(
      and(
        eq(toolLimits.id, id),
        eq(toolLimits.subjectType, subject.type),
        eq(toolLimits.subjectId, subject.id),
      ),
    )
    .returning();
  return row;
}

/** Number removed: every tool limit of a subject (a role being deleted). */
export async function deleteSubjectToolLimitRows(
  db: QueryDb,
  subjectType: LimitSubjectType,
  subjectId: string,
): Promise<number> {
  const rows = await db
    .delete(toolLimits)
    .where(and(eq(toolLimits.subjectType, subjectType), eq(toolLimits.subjectId, subjectId)))
    .returning({ id: toolLimits.id });
  return rows.length;
}

/**
 * What the console shows for each subject of `rows`: a role's name, a user's email, a key's
 * name; absent for a subject deleted since (its limits stay until then, as rules do).
 */
export async function subjectNamesOf(db: QueryDb, rows: ToolLimitRow[]): Promise<Map<string, string>> {
  const idsOf = (type: LimitSubjectType) => [
    ...new Set(rows.filter((r) => r.subjectType === type).map((r) => r.subjectId)),
  ];
  const [roleRows, userRows, keyRows] = await Promise.all([
    lookup(idsOf('role'), (ids) =>
      db.select({ id: roles.id, name: roles.name }).from(roles).where(inArray(roles.id, ids)),
    ),
    lookup(idsOf('user'), (ids) =>
      db.select({ id: users.id, name: users.email }).from(users).where(inArray(users.id, ids)),
    ),
    lookup(idsOf('api_key'), (ids) =>
      db.select({ id: apiKeys.id, name: apiKeys.name }).from(apiKeys).where(inArray(apiKeys.id, ids)),
    ),
  ]);
  return new Map([...roleRows, ...userRows, ...keyRows].map((r) => [r.id, r.name]));
}

function lookup(
  ids: string[],
  query: (ids: string[]) => Promise<Array<{ id: string; name: string }>>,
): Promise<Array<{ id: string; name: string }>> {
  return ids.length === 0 ? Promise.resolve([]) : query(ids);
}
