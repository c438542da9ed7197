import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, tsz, updatedAt } from './columns';
import { users } from './users';

export const API_KEY_STATUSES = ['active', 'revoked', 'disabled', 'expired'] as const;
export type ApiKeyStatus = (typeof API_KEY_STATUSES)[number];

export const apiKeys = pgTable(
  'api_keys',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** SHA-256 of the current secret, hex. The secret itself is never stored. */
    keyHash: text('key_hash').notNull(),
    prefix: text('prefix').notNull(),
    /** Null means every model. */
    allowedModels: text('allowed_models').array(),
    rateLimitRpm: integer('rate_limit_rpm'),
    expiresAt: tsz('expires_at'),
    status: text('status').$type<ApiKeyStatus>().notNull().default('active'),
    /** Hash of the value replaced by the last rotation; accepted until grace_period_ends_at. */
    previousKeyHash: text('previous_key_hash'),
    gracePeriodEndsAt: tsz('grace_period_ends_at'),
    rotatedAt: tsz('rotated_at'),
    rotationIntervalDays: integer('rotation_interval_days'),
    inactivityTimeoutDays: integer('inactivity_timeout_days'),
    lastUsedAt: tsz('last_used_at'),
    revokedAt: tsz('revoked_at'),
    disabledAt: tsz('disabled_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('api_keys_key_hash_key').on(t.keyHash),
    uniqueIndex('api_keys_previous_key_hash_key').on(t.previousKeyHash),
    // The key lists' order, newest first (ties by id), read backwards: every key, and one owner's.
    index('api_keys_created_idx').on(t.createdAt, t.id),
    index('api_keys_user_created_idx').on(t.userId, t.createdAt, t.id),
    // The admin key search (ILIKE '%q%' on name and prefix): trigrams (pg_trgm).
    index('api_keys_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    index('api_keys_prefix_trgm_idx').using('gin', t.prefix.op('gin_trgm_ops')),
    check('api_keys_status_check', sql`${t.status} in ('active','revoked','disabled','expired')`),
  ],
);
