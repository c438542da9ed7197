import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { StoredLimits } from '../../limits/definitions';
import type { ToolLimitDef } from '../../limits/tool-limits';
import { apiKeys } from '../schema/api-keys';
import { budgets, limitRules, roles, teamMembers, teamRoles, teams, userRoles } from '../schema/limits';
import { toolLimits } from '../schema/tool-limits';
import { users } from '../schema/users';
import type { QueryDb } from '../types';

/**
 * The stored limits a request of (key, user) runs under, for the gateway's limits cache: the
 * roles of the user (the role named like users.role, extra global roles, roles of the user's
 * teams), then the rules, budgets and MCP tool limits of those roles, of the user and of the key:
 * two round trips.
 */
export async function loadStoredLimits(
  db: QueryDb,
  keyId: string | null,
  userId: string,
): Promise<StoredLimits> {
  const [roleIds, teamRows] = await Promise.all([roleIdsOf(db, userId), teamNamesOf(db, userId)]);
  const stored = await limitsOfRoles(
    db,
    keyId,
    userId,
    roleIds.map((r) => r.id),
  );
  return { ...stored, teams: teamRows.map((t) => t.name) };
}

/** The user's roles: the one named like users.role, extra global ones, those of the user's teams. */
function roleIdsOf(db: QueryDb, userId: string) {
  return db
    .select({ id: roles.id })
    .from(roles)
    .where(
      or(
        inArray(roles.name, db.select({ name: users.role }).from(users).where(eq(users.id, userId))),
        inArray(
          roles.id,
          db.select({ id: userRoles.roleId }).from(userRoles).where(eq(userRoles.userId, userId)),
        ),
        inArray(
          roles.id,
          db
            .select({ id: teamRoles.roleId })
            .from(teamRoles)
            .innerJoin(teamMembers, eq(teamMembers.teamId, teamRoles.teamId))
            .where(eq(teamMembers.userId, userId)),
        ),
      ),
    );
}

/** The names of the user's teams, read beside the roles (no round trip of its own). */
function teamNamesOf(db: QueryDb, userId: string) {
  return db
    .select({ name: teams.name })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(eq(teamMembers.userId, userId))
    .orderBy(teams.name);
}

async function limitsOfRoles(
  db: QueryDb,
  keyId: string | null,
  userId: string,
  ids: string[],
): Promise<Omit<StoredLimits, 'teams'>> {
  const subjects = (table: typeof limitRules | typeof budgets | typeof toolLimits) =>
    or(
      ids.length > 0 ? and(eq(table.subjectType, 'role'), inArray(table.subjectId, ids)) : sql`false`,
      and(eq(table.subjectType, 'user'), eq(table.subjectId, userId)),
      keyId === null ? sql`false` : and(eq(table.subjectType, 'api_key'), eq(table.subjectId, keyId)),
    );
  const [ruleRows, budgetRows, toolRows] = await Promise.all([
    db.select().from(limitRules).where(subjects(limitRules)),
    db.select().from(budgets).where(subjects(budgets)),
    db.select().from(toolLimits).where(subjects(toolLimits)),
  ]);
  const rulesOf = (type: string) =>
    ruleRows
      .filter((r) => r.subjectType === type)
      .map((r) => ({ kind: r.kind, window: r.window, limit: r.limit }));
  const budgetsOf = (type: string) =>
    budgetRows
      .filter((b) => b.subjectType === type)
      .map((b) => ({ period: b.period, limitTokens: b.limitTokens }));
  const toolsOf = (type: string) =>
    toolRows.filter((t) => t.subjectType === type).map((t) => toToolLimitDef(t));
  return {
    roleRules: rulesOf('role'),
    roleBudgets: budgetsOf('role'),
    userRules: rulesOf('user'),
    userBudgets: budgetsOf('user'),
    keyRules: rulesOf('api_key'),
    keyBudgets: budgetsOf('api_key'),
    roleTools: toolsOf('role'),
    userTools: toolsOf('user'),
    keyTools: toolsOf('api_key'),
  };
}

/** A stored tool limit as the engine takes it: `window` holds a budget's period. */
export function toToolLimitDef(
  row: Pick<typeof toolLimits.$inferSelect, 'tool' | 'kind' | 'window' | 'limit'>,
): ToolLimitDef {
  if (row.kind === 'rate')
    return { tool: row.tool, kind: 'rate', window: row.window as ToolRateWindow, limit: row.limit };
  return { tool: row.tool, kind: 'budget', period: row.window as ToolBudgetPeriod, limit: row.limit };
}

type ToolRateWindow = Extract<ToolLimitDef, { kind: 'rate' }>['window'];
type ToolBudgetPeriod = Extract<ToolLimitDef, { kind: 'budget' }>['period'];

/** Owner and rate_limit_rpm of a key, whatever its status; undefined when no such key exists. */
export async function findKeyLimitSubject(
  db: QueryDb,
  keyId: string,
): Promise<{ userId: string; rateLimitRpm: number | null } | undefined> {
  const [row] = await db
    .select({ userId: apiKeys.userId, rateLimitRpm: apiKeys.rateLimitRpm })
    .from(apiKeys)
    .where(eq(apiKeys.id, keyId))
    .limit(1);
  return row;
}
