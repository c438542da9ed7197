import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import { fetchPage, type PageQuery } from '../paging';
import {
  apiKeys,
  budgets,
  type LIMIT_SUBJECTS,
  limitRules,
  permissionGrants,
  roles,
  teamMembers,
  teamRoles,
  teams,
  userRoles,
  users,
} from '../schema';
import type { QueryDb } from '../types';

export type RoleRow = typeof roles.$inferSelect;
export type TeamRow = typeof teams.$inferSelect;
export type LimitRuleRow = typeof limitRules.$inferSelect;
export type BudgetRow = typeof budgets.$inferSelect;
export type GrantRow = typeof permissionGrants.$inferSelect;
export type LimitSubjectType = (typeof LIMIT_SUBJECTS)[number];

export interface NewLimitRule {
  kind: LimitRuleRow['kind'];
  window: LimitRuleRow['window'];
  limit: number;
}

export interface NewBudget {
  period: BudgetRow['period'];
  limitTokens: number;
}

// Roles and teams -----------------------------------------------------------------------------

/** A page of roles by name (unique, so the order is stable). */
export function listRolePage(db: QueryDb, page: PageQuery): Promise<{ rows: RoleRow[]; total: number }> {
  return fetchPage(
    page,
    db.select().from(roles).orderBy(asc(roles.name)),
    db.select({ total: count() }).from(roles),
  );
}

export async function findRoleById(db: QueryDb, id: string, options: { lock?: boolean } = {}) {
  const query = db.select().from(roles).where(eq(roles.id, id)).limit(1);
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/** Undefined when the name is taken (the unique index decides, so racing creates cannot both win). */
export async function insertRoleIfNameFree(
  db: QueryDb,
  input: { name: string; description: string | null },
): Promise<RoleRow | undefined> {
  const [row] = await db.insert(roles).values(input).onConflictDoNothing().returning();
  return row;
}

export async function updateRoleRow(
  db: QueryDb,
  id: string,
  patch: { name?: string; description?: string | null },
) {
  const [row] = await db
    .update(roles)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(roles.id, id))
    .returning();
  return row;
}

/** Its user and team attachments go with it (ON DELETE CASCADE); its rules do not (see deleteSubjectLimits). */
export async function deleteRoleRow(db: QueryDb, id: string): Promise<RoleRow | undefined> {
  const [row] = await db.delete(roles).where(eq(roles.id, id)).returning();
  return row;
}

/** A page of teams by name (unique, so the order is stable). */
export function listTeamPage(db: QueryDb, page: PageQuery): Promise<{ rows: TeamRow[]; total: number }> {
  return fetchPage(
    page,
    db.select().from(teams).orderBy(asc(teams.name)),
    db.select({ total: count() }).from(teams),
  );
}

export async function findTeamById(db: QueryDb, id: string, options: { lock?: boolean } = {}) {
  const query = db.select().from(teams).where(eq(teams.id, id)).limit(1);
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

export async function insertTeamIfNameFree(
  db: QueryDb,
  input: { name: string; description: string | null },
): Promise<TeamRow | undefined> {
  const [row] = await db.insert(teams).values(input).onConflictDoNothing().returning();
  return row;
}

export async function updateTeamRow(
  db: QueryDb,
  id: string,
  patch: { name?: string; description?: string | null },
) {
  const [row] = await db
    .update(teams)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(teams.id, id))
    .returning();
  return row;
}

/** Members and role attachments go with it (ON DELETE CASCADE); grants scoped to it do not. */
export async function deleteTeamRow(db: QueryDb, id: string): Promise<TeamRow | undefined> {
  const [row] = await db.delete(teams).where(eq(teams.id, id)).returning();
  return row;
}

/** Pairs of (team, user) for the given teams. */
export async function listTeamMembers(db: QueryDb, teamIds: string[]) {
  if (teamIds.length === 0) return [];
  return db
    .select({ teamId: teamMembers.teamId, userId: teamMembers.userId })
    .from(teamMembers)
    .where(inArray(teamMembers.teamId, teamIds))
    .orderBy(asc(teamMembers.userId));
}

export async function listTeamRoles(db: QueryDb, teamIds: string[]) {
  if (teamIds.length === 0) return [];
  return db
    .select({ teamId: teamRoles.teamId, roleId: teamRoles.roleId })
    .from(teamRoles)
    .where(inArray(teamRoles.teamId, teamIds))
    .orderBy(asc(teamRoles.roleId));
}

export async function replaceTeamMembers(db: QueryDb, teamId: string, userIds: string[]): Promise<void> {
  await db.delete(teamMembers).where(eq(teamMembers.teamId, teamId));
  if (userIds.length > 0) await db.insert(teamMembers).values(userIds.map((userId) => ({ teamId, userId })));
}

export async function replaceTeamRoles(db: QueryDb, teamId: string, roleIds: string[]): Promise<void> {
  await db.delete(teamRoles).where(eq(teamRoles.teamId, teamId));
  if (roleIds.length > 0) await db.insert(teamRoles).values(roleIds.map((roleId) => ({ teamId, roleId })));
}

export async function listUserRoleIds(db: QueryDb, userId: string): Promise<string[]> {
  const rows = await db
    .select({ roleId: userRoles.roleId })
    .from(userRoles)
    .where(eq(userRoles.userId, userId))
    .orderBy(asc(userRoles.roleId));
  return rows.map((r) => r.roleId);
}

export async function replaceUserRoles(db: QueryDb, userId: string, roleIds: string[]): Promise<void> {
  await db.delete(userRoles).where(eq(userRoles.userId, userId));
  if (roleIds.length > 0) await db.insert(userRoles).values(roleIds.map((roleId) => ({ userId, roleId })));
}

/**
 * Which of `ids` exist, share-locked so they cannot be deleted before the transaction that
 * references them commits.
 */
export async function lockExistingIds(db: QueryDb, table: 'users' | 'roles' | 'teams', ids: string[]) {
  if (ids.length === 0) return new Set<string>();
  const t = { users, roles, teams }[table];
  const rows = await db.select({ id: t.id }).from(t).where(inArray(t.id, ids)).for('share');
  return new Set(rows.map((r) => r.id));
}

// Rules and budgets ---------------------------------------------------------------------------

/**
 * Serialises replacements of one subject's rules or budgets: delete-then-insert from two
 * transactions at once would otherwise collide on the unique index.
 */
export async function lockSubjectLimits(db: QueryDb, subjectType: LimitSubjectType, subjectId: string) {
  await db.execute(
    sql`select pg_advisory_xact_lock(hashtext(${`sluice:limits:${subjectType}:${subjectId}`}))`,
  );
}

export function listRuleRows(db: QueryDb, subjectType: LimitSubjectType, subjectIds: string[]) {
  if (subjectIds.length === 0) return Promise.resolve([] as LimitRuleRow[]);
  return db
    .select()
    .from(limitRules)
    .where(and(eq(limitRules.subjectType, subjectType), inArray(limitRules.subjectId, subjectIds)));
}

export function listBudgetRows(db: QueryDb, subjectType: LimitSubjectType, subjectIds: string[]) {
  if (subjectIds.length === 0) return Promise.resolve([] as BudgetRow[]);
  return db
    .select()
    .from(budgets)
    .where(and(eq(budgets.subjectType, subjectType), inArray(budgets.subjectId, subjectIds)));
}

/** Number of rules removed. */
export async function deleteRuleRows(db: QueryDb, subjectType: LimitSubjectType, subjectId: string) {
  const rows = await db
    .delete(limitRules)
    .where(and(eq(limitRules.subjectType, subjectType), eq(limitRules.subjectId, subjectId)))
    .returning({ id: limitRules.id });
  return rows.length;
}

export async function deleteBudgetRows(db: QueryDb, subjectType: LimitSubjectType, subjectId: string) {
  const rows = await db
    .delete(budgets)
    .where(and(eq(budgets.subjectType, subjectType), eq(budgets.subjectId, subjectId)))
    .returning({ id: budgets.id });
  return rows.length;
}

export async function replaceRuleRows(
  db: QueryDb,
  subjectType: LimitSubjectType,
  subjectId: string,
  rules: NewLimitRule[],
): Promise<void> {
  await deleteRuleRows(db, subjectType, subjectId);
  if (rules.length > 0)
    await db.insert(limitRules).values(rules.map((r) => ({ ...r, subjectType, subjectId })));
}

export async function replaceBudgetRows(
  db: QueryDb,
  subjectType: LimitSubjectType,
  subjectId: string,
  list: NewBudget[],
): Promise<void> {
  await deleteBudgetRows(db, subjectType, subjectId);
  if (list.length > 0) await db.insert(budgets).values(list.map((b) => ({ ...b, subjectType, subjectId })));
}

// Subjects and permission grants --------------------------------------------------------------

/** The key's owner, whatever the key's status; undefined when no such key exists. */
export async function findApiKeyOwner(db: QueryDb, keyId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ userId: apiKeys.userId })
    .from(apiKeys)
    .where(eq(apiKeys.id, keyId))
    .limit(1);
  return row?.userId;
}

/** Which of `teamIds` have `userId` as a member. */
export async function teamsHavingMember(
  db: QueryDb,
  teamIds: string[],
  userId: string,
): Promise<Set<string>> {
  if (teamIds.length === 0) return new Set();
  const rows = await db
    .select({ teamId: teamMembers.teamId })
    .from(teamMembers)
    .where(and(inArray(teamMembers.teamId, teamIds), eq(teamMembers.userId, userId)));
  return new Set(rows.map((r) => r.teamId));
}

export function listGrantRows(
  db: QueryDb,
  filter: { userId?: string; permissions?: GrantRow['permission'][] } = {},
) {
  return db
    .select()
    .from(permissionGrants)
    .where(
      and(
        filter.userId ? eq(permissionGrants.userId, filter.userId) : undefined,
        filter.permissions ? inArray(permissionGrants.permission, filter.permissions) : undefined,
      ),
    )
    .orderBy(asc(permissionGrants.createdAt), asc(permissionGrants.id));
}

/** A page of grants, oldest first, ties by id; only those held by `userId` when given. */
export function listGrantPage(
  db: QueryDb,
  filter: { userId?: string },
  page: PageQuery,
): Promise<{ rows: GrantRow[]; total: number }> {
  const where = filter.userId ? eq(permissionGrants.userId, filter.userId) : undefined;
  return fetchPage(
    page,
    db
      .select()
      .from(permissionGrants)
      .where(where)
      .orderBy(asc(permissionGrants.createdAt), asc(permissionGrants.id)),
    db.select({ total: count() }).from(permissionGrants).where(where),
  );
}

/** Serialises grant changes per holder, so two equal grants cannot both be created. */
export async function lockGrantsOf(db: QueryDb, userId: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`sluice:grants:${userId}`}))`);
}

export async function insertGrantRow(
  db: QueryDb,
  values: typeof permissionGrants.$inferInsert,
): Promise<GrantRow> {
  const [row] = await db.insert(permissionGrants).values(values).returning();
  if (!row) throw new Error('insert into permission_grants returned no row');
  return row;
}

export async function deleteGrantRow(db: QueryDb, id: string): Promise<GrantRow | undefined> {
  const [row] = await db.delete(permissionGrants).where(eq(permissionGrants.id, id)).returning();
  return row;
}

/** Grants scoped to a team that is being deleted (scope_id has no foreign key). */
export async function deleteTeamScopedGrants(db: QueryDb, teamId: string): Promise<number> {
  const rows = await db
    .delete(permissionGrants)
    .where(and(eq(permissionGrants.scopeType, 'team'), eq(permissionGrants.scopeId, teamId)))
    .returning({ id: permissionGrants.id });
  return rows.length;
}
