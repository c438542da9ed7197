import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns';
import { users } from './users';

/** Limit-granting roles. A user's global role name (users.role) selects the role of the same name. */
export const roles = pgTable(
  'roles',
  {
    id: id(),
    name: text('name').notNull(),
    description: text('description'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('roles_name_key').on(t.name)],
);

export const userRoles = pgTable(
  'user_roles',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] })],
);

export const teams = pgTable(
  'teams',
  {
    id: id(),
    name: text('name').notNull(),
    description: text('description'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('teams_name_key').on(t.name)],
);

export const teamMembers = pgTable(
  'team_members',
  {
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] })],
);

export const teamRoles = pgTable(
  'team_roles',
  {
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.roleId] })],
);

export const LIMIT_SUBJECTS = ['role', 'user', 'api_key'] as const;
export const LIMIT_KINDS = ['requests', 'tokens'] as const;
export const LIMIT_WINDOWS = ['1m', '5m', '1h', '5h', '1d', '1w'] as const;
export const BUDGET_PERIODS = ['daily', 'weekly', 'monthly'] as const;

/** Sliding-window rule on a role, a user (override) or an API key. */
export const limitRules = pgTable(
  'limit_rules',
  {
    id: id(),
    subjectType: text('subject_type').$type<(typeof LIMIT_SUBJECTS)[number]>().notNull(),
    subjectId: uuid('subject_id').notNull(),
    kind: text('kind').$type<(typeof LIMIT_KINDS)[number]>().notNull(),
    window: text('window').$type<(typeof LIMIT_WINDOWS)[number]>().notNull(),
    limit: bigint('limit', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('limit_rules_subject_key').on(t.subjectType, t.subjectId, t.kind, t.window),
    check('limit_rules_subject_check', sql`${t.subjectType} in ('role','user','api_key')`),
    check('limit_rules_kind_check', sql`${t.kind} in ('requests','tokens')`),
    check('limit_rules_window_check', sql`${t.window} in ('1m','5m','1h','5h','1d','1w')`),
    check('limit_rules_limit_check', sql`${t.limit} >= 0`),
  ],
);

/** Calendar budget in weighted tokens. */
export const budgets = pgTable(
  'budgets',
  {
    id: id(),
    subjectType: text('subject_type').$type<(typeof LIMIT_SUBJECTS)[number]>().notNull(),
    subjectId: uuid('subject_id').notNull(),
    period: text('period').$type<(typeof BUDGET_PERIODS)[number]>().notNull(),
    limitTokens: bigint('limit_tokens', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('budgets_subject_key').on(t.subjectType, t.subjectId, t.period),
    check('budgets_subject_check', sql`${t.subjectType} in ('role','user','api_key')`),
    check('budgets_period_check', sql`${t.period} in ('daily','weekly','monthly')`),
    check('budgets_limit_check', sql`${t.limitTokens} >= 0`),
  ],
);

/** rate_limits:read / rate_limits:write held in a scope: global, a team, or the holder's own keys. */
export const permissionGrants = pgTable(
  'permission_grants',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    permission: text('permission').$type<'rate_limits:read' | 'rate_limits:write'>().notNull(),
    scopeType: text('scope_type').$type<'global' | 'team' | 'own'>().notNull(),
    scopeId: uuid('scope_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('permission_grants_user_idx').on(t.userId),
    check(
      'permission_grants_permission_check',
      sql`${t.permission} in ('rate_limits:read','rate_limits:write')`,
    ),
    check('permission_grants_scope_check', sql`${t.scopeType} in ('global','team','own')`),
  ],
);
