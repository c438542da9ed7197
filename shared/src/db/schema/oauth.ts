import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, tsz } from './columns';
import { users } from './users';

/**
 * Clients of Sluice's authorization server (MCP clients signing users in to /mcp): registered
 * through dynamic client registration (RFC 7591), or known by a client ID metadata document
 * (the client_id is the document's https URL; kept here once fetched).
 */
export const oauthClients = pgTable('oauth_clients', {
  clientId: text('client_id').primaryKey(),
  clientName: text('client_name').notNull(),
  redirectUris: jsonb('redirect_uris').$type<string[]>().notNull(),
  /** `registered` (RFC 7591) or `metadata_document`. */
  source: text('source').$type<'registered' | 'metadata_document'>().notNull(),
  createdAt: createdAt(),
  /** When a metadata document was last fetched. */
  fetchedAt: tsz('fetched_at'),
});

/**
 * What a user let a client do (one row per consent): the resource it may call and the scope.
 * The refresh token is `<grant id>.<secret>`; only its hash is kept, and the one it replaced,
 * so a replayed old token is recognised and ends the grant.
 */
export const oauthGrants = pgTable(
  'oauth_grants',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    clientId: text('client_id').notNull(),
    clientName: text('client_name').notNull(),
    resource: text('resource').notNull(),
    scope: text('scope').notNull(),
    refreshHash: text('refresh_hash'),
    previousRefreshHash: text('previous_refresh_hash'),
    createdAt: createdAt(),
    lastUsedAt: tsz('last_used_at'),
    revokedAt: tsz('revoked_at'),
    revokedReason: text('revoked_reason'),
  },
  (t) => [index('oauth_grants_user_idx').on(t.userId)],
);
