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
    index('api_keys_user_id_idx').on(t.userId),
    check('api_keys_status_check', sql`${t.status} in ('active','revoked','disabled','expired')`),
  ],
);
