import { sql } from 'drizzle-orm';
import { boolean, check, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns';

export type McpAuthType =
  | 'none'
  | 'bearer'
  | 'header'
  | 'query'
  | 'oauth'
  | 'oauth_client_credentials'
  | 'oauth_jwt_bearer'
  | 'oauth_token_exchange';

export const mcpServers = pgTable(
  'mcp_servers',
  {
    id: id(),
    name: text('name').notNull(),
    description: text('description'),
    endpointUrl: text('endpoint_url').notNull(),
    transportType: text('transport_type')
      .$type<'streamable_http' | 'sse'>()
      .notNull()
      .default('streamable_http'),
    /**
     * `oauth`: each user connects their own account (mcp-oauth.ts); `oauth_client_credentials` and
     * `oauth_jwt_bearer`: Sluice gets one token for itself at the server's authorization server;
     * `oauth_token_exchange`: each user's ID token from the company's identity provider is
     * exchanged there for an ID-JAG, which Sluice presents at the server's authorization server
     * (enterprise-managed authorization, mcp/oauth/exchange-token.ts); the others: one credential.
     */
    authType: text('auth_type').$type<McpAuthType>().notNull().default('none'),
    /** Header or query parameter name for auth types header and query. */
    authName: text('auth_name'),
    /** The credential: sent as it is, or (oauth_jwt_bearer) the workload JWT exchanged for a token. */
    authSecretEncrypted: text('auth_secret_encrypted'),
    /**
     * auth_type oauth at an authorization server without registration: the client the admin
     * registered there beforehand (its secret sealed); null: Sluice registers one itself. The
     * machine auth types authenticate as this client, with its secret or its private key.
     */
    oauthClientId: text('oauth_client_id'),
    oauthClientSecretEncrypted: text('oauth_client_secret_encrypted'),
    /** A PKCS#8 PEM, sealed: signs the client's assertions (private_key_jwt, RFC 7523). */
    oauthPrivateKeyEncrypted: text('oauth_private_key_encrypted'),
    /**
     * auth_type oauth_token_exchange: the identity provider that issues the users' ID tokens and
     * exchanges them (RFC 8693), and the client Sluice is there (its secret sealed, optional).
     */
    idpIssuer: text('idp_issuer'),
    idpClientId: text('idp_client_id'),
    idpClientSecretEncrypted: text('idp_client_secret_encrypted'),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('mcp_servers_name_key').on(t.name),
    check('mcp_servers_transport_check', sql`${t.transportType} in ('streamable_http','sse')`),
    check(
      'mcp_servers_auth_check',
      sql`${t.authType} in ('none','bearer','header','query','oauth','oauth_client_credentials','oauth_jwt_bearer','oauth_token_exchange')`,
    ),
  ],
);

export const mcpTools = pgTable(
  'mcp_tools',
  {
    id: id(),
    serverId: uuid('server_id')
      .notNull()
      .references(() => mcpServers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    inputSchema: jsonb('input_schema').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('mcp_tools_server_name_key').on(t.serverId, t.name)],
);

/**
 * A virtual server: a named, curated set of tools of several servers, served at /mcp/{name}
 * under their `<server>__<tool>` names. Its name is unique among virtual and registered servers
 * (the registry checks the latter). A listed tool that does not exist (yet) is just not served.
 */
export const mcpVirtualServers = pgTable(
  'mcp_virtual_servers',
  {
    id: id(),
    name: text('name').notNull(),
    description: text('description'),
    /** `<server>__<tool>` names. */
    tools: text('tools').array().notNull().default(sql`'{}'::text[]`),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('mcp_virtual_servers_name_key').on(t.name)],
);
