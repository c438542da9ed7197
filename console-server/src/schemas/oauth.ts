import { z } from '@hono/zod-openapi';
import { pageQuerySchema } from '@sluice/shared/db';
import { listSchema } from './page';

/** The console's side of the /mcp authorization server: consent and grants. */

export const AuthorizationRequestSchema = z
  .object({
    id: z.string(),
    client_id: z
      .string()
      .openapi({ description: 'Registered client id, or the URL of its metadata document' }),
    client_name: z.string().openapi({ description: 'As the client names itself (not verified)' }),
    redirect_uri: z.string().openapi({ description: 'Where the browser goes back with the answer' }),
    scope: z.string(),
    resource: z.string().openapi({ description: 'The MCP endpoint the token will be for' }),
  })
  .openapi('AuthorizationRequest');

export const RequestIdParams = z.object({ id: z.string().min(1).max(64) });

export const ConsentDecisionSchema = z.object({ approve: z.boolean() }).openapi('ConsentDecision');

export const ConsentAnswerSchema = z
  .object({ redirect_to: z.string().openapi({ description: 'Send the browser here' }) })
  .openapi('ConsentAnswer');

export const GrantSchema = z
  .object({
    id: z.uuid(),
    user_id: z.uuid(),
    user_email: z.string(),
    client_id: z.string(),
    client_name: z.string(),
    resource: z.string(),
    scope: z.string(),
    created_at: z.string(),
    last_used_at: z.string().nullable().openapi({ description: 'Last token refresh' }),
    revoked_at: z.string().nullable(),
    revoked_reason: z.string().nullable(),
  })
  .openapi('OAuthGrant');

export const GrantPageSchema = listSchema(GrantSchema, 'OAuthGrantPage');

export const GrantListQuery = pageQuerySchema.extend({
  all: z
    .enum(['true', 'false'])
    .optional()
    .openapi({ description: "Admins: every user's grants (default: only your own)" }),
});

export const McpConnectionSchema = z
  .object({
    server_id: z.uuid(),
    server_name: z.string(),
    endpoint_url: z.string(),
    connect_with: z.enum(['sign_in', 'id_token']).openapi({
      description:
        "sign_in: you sign in at the server's authorization server (POST /api/mcp/connections/{id}); " +
        "id_token: your ID token from the company's identity provider is exchanged for your token " +
        '(enterprise-managed authorization; POST /api/mcp/connections/{id}/id-token)',
    }),
    connected: z
      .boolean()
      .openapi({ description: 'You connected your account; the gateway calls the server with your token' }),
    connected_at: z.string().nullable(),
    expires_at: z
      .string()
      .nullable()
      .openapi({ description: 'When the current access token expires (it is refreshed)' }),
  })
  .openapi('McpConnection');

export const McpConnectionPageSchema = listSchema(McpConnectionSchema, 'McpConnectionPage');

export const IdTokenConnectSchema = z
  .strictObject({
    id_token: z.string().min(1).max(16_384).openapi({
      description:
        "Your ID token from the server's identity provider (issued to its idp_client_id); it is kept sealed and exchanged for your access tokens",
    }),
  })
  .openapi('McpIdTokenConnect');

export const IdTokenConnectedSchema = z
  .object({
    server_id: z.uuid(),
    subject: z.string().openapi({ description: 'Who the ID token names (its email, else its sub)' }),
    expires_at: z
      .string()
      .openapi({ description: 'When the access token got for you expires (exchanged again then)' }),
  })
  .openapi('McpIdTokenConnected');

export const ConnectStartSchema = z
  .object({
    authorization_url: z.string().openapi({ description: "Send the browser here: the server's own sign-in" }),
  })
  .openapi('McpConnectStart');
