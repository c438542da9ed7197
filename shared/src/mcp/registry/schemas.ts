import * as z from 'zod';
import { httpUrlSchema } from '../../identity/schemas';
import { RESERVED_SERVER_NAME } from '../gateway/tool-search';

/**
 * MCP server registration. auth_type bearer sends `Authorization: Bearer <auth_secret>`; header
 * sends `<auth_name>: <auth_secret>`; query adds `?<auth_name>=<auth_secret>` to every request;
 * oauth sends each user's own token, which they get by connecting their account (mcp/oauth),
 * signing in with the client Sluice registers at the server's authorization server, or with
 * one the admin registered there beforehand (oauth_client_id, oauth_client_secret).
 */
export const MCP_TRANSPORTS = ['streamable_http', 'sse'] as const;
export const MCP_AUTH_TYPES = ['none', 'bearer', 'header', 'query', 'oauth'] as const;

/** A server's name, registered or virtual: the {name} of /mcp/{name}. */
export const mcpServerNameSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9_-]*$/, 'must be a lowercase slug')
  // Its tool names (sluice__…) are the gateway's own: the tool search.
  .refine((name) => name !== RESERVED_SERVER_NAME, `${RESERVED_SERVER_NAME} is reserved`);
/** An HTTP header or query parameter name. */
const authNameSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'must be a header or parameter name');
const secretSchema = z.string().min(1).max(4096);
const clientIdSchema = z.string().min(1).max(1024);

export interface AuthFields {
  auth_type: (typeof MCP_AUTH_TYPES)[number];
  auth_name: string | null;
  /** Whether a secret is (or will be) stored. */
  has_secret: boolean;
  /** A secret sent with auth_type none is refused rather than stored unused. */
  secret_sent: boolean;
  /** The pre-registered OAuth client, as it will be stored. */
  oauth_client_id?: string | null;
  has_oauth_client_secret?: boolean;
}

/** What each auth_type needs, on the fields as they will be stored; [] when consistent. */
export function authProblems(auth: AuthFields): Array<{ path: string; message: string }> {
  const problems: Array<{ path: string; message: string }> = [];
  const needsName = auth.auth_type === 'header' || auth.auth_type === 'query';
  if (needsName && !auth.auth_name)
    problems.push({ path: 'auth_name', message: `is required for auth_type ${auth.auth_type}` });
  if (!needsName && auth.auth_name) {
    problems.push({ path: 'auth_name', message: 'is only allowed for auth_type header or query' });
  }
  const secretless = auth.auth_type === 'none' || auth.auth_type === 'oauth';
  if (!secretless && !auth.has_secret) {
    problems.push({ path: 'auth_secret', message: `is required for auth_type ${auth.auth_type}` });
  }
  if (secretless && (auth.secret_sent || auth.has_secret)) {
    problems.push({ path: 'auth_secret', message: `is not used with auth_type ${auth.auth_type}` });
  }
  if (auth.auth_type !== 'oauth' && auth.oauth_client_id)
    problems.push({ path: 'oauth_client_id', message: 'is only allowed for auth_type oauth' });
  if (!auth.oauth_client_id && auth.has_oauth_client_secret)
    problems.push({ path: 'oauth_client_secret', message: 'needs oauth_client_id' });
  return problems;
}

export const createMcpServerInputSchema = z
  .strictObject({
    name: mcpServerNameSchema,
    description: z.string().trim().max(1000).nullable().default(null),
    endpoint_url: httpUrlSchema,
    transport_type: z.enum(MCP_TRANSPORTS).default('streamable_http'),
    auth_type: z.enum(MCP_AUTH_TYPES).default('none'),
    auth_name: authNameSchema.nullable().default(null),
    auth_secret: secretSchema.nullable().default(null),
    oauth_client_id: clientIdSchema.nullable().default(null),
    oauth_client_secret: secretSchema.nullable().default(null),
  })
  .superRefine((input, ctx) => {
    const secret = input.auth_secret !== null;
    const clientSecret = input.oauth_client_secret !== null;
    const fields = {
      ...input,
      has_secret: secret,
      secret_sent: secret,
      has_oauth_client_secret: clientSecret,
    };
    for (const problem of authProblems(fields)) {
      ctx.addIssue({ code: 'custom', path: [problem.path], message: problem.message });
    }
  });
export type CreateMcpServerInput = z.infer<typeof createMcpServerInputSchema>;

/**
 * name is fixed: tool names are namespaced by it. Changing auth_type to one that needs a secret
 * without sending auth_secret keeps the stored secret (422 if there is none, checked later).
 */
export const updateMcpServerInputSchema = z
  .strictObject({
    description: z.string().trim().max(1000).nullable().optional(),
    endpoint_url: httpUrlSchema.optional(),
    transport_type: z.enum(MCP_TRANSPORTS).optional(),
    auth_type: z.enum(MCP_AUTH_TYPES).optional(),
    auth_name: authNameSchema.nullable().optional(),
    auth_secret: secretSchema.nullable().optional(),
    /** null removes the pre-registered client (and its secret): Sluice registers one again. */
    oauth_client_id: clientIdSchema.nullable().optional(),
    /** Omitted keeps the stored secret; null removes it (a public client). */
    oauth_client_secret: secretSchema.nullable().optional(),
    is_active: z.boolean().optional(),
  })
  .refine((input) => Object.keys(input).length > 0, 'at least one field is required');
export type UpdateMcpServerInput = z.infer<typeof updateMcpServerInputSchema>;

/** `<server>__<tool>`, as /mcp publishes a tool and security.mcp_tool_access names it. */
const toolNameSchema = z
  .string()
  .max(256)
  .regex(/^[a-z0-9][a-z0-9_-]*__\S+$/, 'must be <server>__<tool>');
/** Tools need not exist yet: one that does not is just not served until it does. */
const toolListSchema = z
  .array(toolNameSchema)
  .min(1)
  .max(500)
  .refine((tools) => new Set(tools).size === tools.length, 'must not repeat a tool');

/** A virtual server: a named, curated set of tools of several servers, served at /mcp/{name}. */
export const createMcpVirtualServerInputSchema = z.strictObject({
  name: mcpServerNameSchema,
  description: z.string().trim().max(1000).nullable().default(null),
  tools: toolListSchema,
  is_active: z.boolean().default(true),
});
export type CreateMcpVirtualServerInput = z.infer<typeof createMcpVirtualServerInputSchema>;

/** name is fixed: clients are configured with its URL. */
export const updateMcpVirtualServerInputSchema = z
  .strictObject({
    description: z.string().trim().max(1000).nullable().optional(),
    tools: toolListSchema.optional(),
    is_active: z.boolean().optional(),
  })
  .refine((input) => Object.keys(input).length > 0, 'at least one field is required');
export type UpdateMcpVirtualServerInput = z.infer<typeof updateMcpVirtualServerInputSchema>;
