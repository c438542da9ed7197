import { boolean, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, tsz, updatedAt } from './columns';
import { mcpServers } from './mcp';
import { users } from './users';

export type TokenAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post';

/**
 * Sluice as an OAuth client of an upstream MCP server registered with auth_type oauth: the
 * authorization server it found for it and the client it registered there (once per server).
 */
export const mcpOAuthClients = pgTable('mcp_oauth_clients', {
  serverId: uuid('server_id')
    .primaryKey()
    .references(() => mcpServers.id, { onDelete: 'cascade' }),
  issuer: text('issuer').notNull(),
  authorizationEndpoint: text('authorization_endpoint').notNull(),
  tokenEndpoint: text('token_endpoint').notNull(),
  clientId: text('client_id').notNull(),
  clientSecretEncrypted: text('client_secret_encrypted'),
  /** The resource identifier tokens are asked for (RFC 8707), exactly as its metadata names it. */
  resource: text('resource').notNull(),
  /** What tokens are asked for (the resource's scopes_supported), space-separated; null: none. */
  scope: text('scope'),
  /** How the client authenticates at the token endpoint: none, client_secret_basic or _post. */
  tokenAuthMethod: text('token_auth_method').$type<TokenAuthMethod>().notNull().default('none'),
  /** The server says it puts `iss` in authorization responses (RFC 9207): it must be there. */
  issSupported: boolean('iss_supported').notNull().default(false),
  createdAt: createdAt(),
});

/** Each user's own tokens for such a server, sealed with SLUICE_ENCRYPTION_KEY. */
export const mcpUserTokens = pgTable(
  'mcp_user_tokens',
  {
    serverId: uuid('server_id')
      .notNull()
      .references(() => mcpServers.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accessTokenEncrypted: text('access_token_encrypted').notNull(),
    refreshTokenEncrypted: text('refresh_token_encrypted'),
    /** auth_type oauth_token_exchange: the user's ID token, exchanged again when the access token expires. */
    idTokenEncrypted: text('id_token_encrypted'),
    expiresAt: tsz('expires_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.serverId, t.userId] })],
);
