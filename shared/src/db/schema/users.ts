import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, tsz, updatedAt } from './columns';

export const USER_ROLES = ['admin', 'operator', 'user', 'viewer', 'service'] as const;
export type UserRole = (typeof USER_ROLES)[number];

export const users = pgTable(
  'users',
  {
    id: id(),
    email: text('email').notNull(),
    displayName: text('display_name').notNull(),
    /** Null for accounts that only sign in through SSO. */
    passwordHash: text('password_hash'),
    role: text('role').$type<UserRole>().notNull().default('user'),
    isActive: boolean('is_active').notNull().default(true),
    ssoSubject: text('sso_subject'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(sql`lower(${t.email})`),
    uniqueIndex('users_sso_subject_key').on(t.ssoSubject),
    // The admin key search by owner email (ILIKE '%q%'): trigrams (pg_trgm).
    index('users_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
    check('users_role_check', sql`${t.role} in ('admin','operator','user','viewer','service')`),
  ],
);

/** A chain of refresh tokens issued from one login; reuse of a spent token revokes the chain. */
export const refreshTokenFamilies = pgTable('refresh_token_families', {
  id: id(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
  revokedAt: tsz('revoked_at'),
  revokedReason: text('revoked_reason'),
});

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: id(),
    familyId: uuid('family_id')
      .notNull()
      .references(() => refreshTokenFamilies.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: tsz('expires_at').notNull(),
    usedAt: tsz('used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('refresh_tokens_hash_key').on(t.tokenHash)],
);
