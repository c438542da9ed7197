import { z } from '@hono/zod-openapi';
import { pageQuerySchema } from '@sluice/shared/db';
import { pageSchema } from './page';

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

export const GrantPageSchema = pageSchema(GrantSchema, 'OAuthGrantPage', 'Grants');

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

export const McpConnectionPageSchema = pageSchema(McpConnectionSchema, 'McpConnectionPage', 'Servers');

export const ConnectStartSchema = z
  .object({
    authorization_url: z.string().openapi({ description: "Send the browser here: the server's own sign-in" }),
  })
  .openapi('McpConnectStart');
