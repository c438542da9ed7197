import * as z from 'zod';
import { httpUrlSchema } from '../../auth/sign-in/schemas';
import { RESERVED_SERVER_NAME } from '../gateway/tool-search';

/**
 * MCP server registration. auth_type bearer sends `Authorization: Bearer <auth_secret>`; header
 * sends `<auth_name>: <auth_secret>`; query adds `?<auth_name>=<auth_secret>` to every request;
 * oauth sends each user's own token, which they get by connecting their account (mcp/oauth),
 * signing in with the client Sluice registers at the server's authorization server, or with
 * one the admin registered there beforehand (oauth_client_id, oauth_client_secret).
 * oauth_client_credentials and oauth_jwt_bearer send a token Sluice gets for itself, one for
 * every caller, from the server's authorization server: as the client oauth_client_id
 * (authenticated by oauth_client_secret or by assertions signed with oauth_private_key), or by
 * presenting a workload's JWT (auth_secret; the client is optional there).
 * oauth_token_exchange sends each user's own token, which Sluice gets for them (enterprise-managed
 * authorization): their ID token from the identity provider idp_issuer is exchanged there, as
 * the client idp_client_id, for an identity assertion grant that the client oauth_client_id
 * presents at the server's authorization server (jwt-bearer).
 */
export const MCP_TRANSPORTS = ['streamable_http', 'sse'] as const;
export const MCP_AUTH_TYPES = [
  'none',
  'bearer',
  'header',
  'query',
  'oauth',
  'oauth_client_credentials',
  'oauth_jwt_bearer',
  'oauth_token_exchange',
] as const;
type AuthType = (typeof MCP_AUTH_TYPES)[number];

/** The auth types where Sluice signs in to the server as itself. */
export function isMachineAuth(
  authType: AuthType,
): authType is 'oauth_client_credentials' | 'oauth_jwt_bearer' {
  return authType === 'oauth_client_credentials' || authType === 'oauth_jwt_bearer';
}

/** The auth types that name an OAuth client of the server's authorization server. */
export function takesClient(authType: AuthType): boolean {
  return authType === 'oauth' || authType === 'oauth_token_exchange' || isMachineAuth(authType);
}

/** The auth types whose client may authenticate with a private key (private_key_jwt). */
export function takesPrivateKey(authType: AuthType): boolean {
  return authType === 'oauth_token_exchange' || isMachineAuth(authType);
}

/** The auth types without auth_secret: nothing sent, or a token Sluice gets. */
export function isSecretless(authType: AuthType): boolean {
  return (
    authType === 'none' ||
    authType === 'oauth' ||
    authType === 'oauth_client_credentials' ||
    authType === 'oauth_token_exchange'
  );
}

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
/** Web Crypto imports PKCS#8 only; the registry also checks that it can sign with it. */
const privateKeySchema = z
  .string()
  .trim()
  .max(16_384)
  .regex(
    /^-----BEGIN PRIVATE KEY-----[A-Za-z0-9+/=\s]+-----END PRIVATE KEY-----$/,
    'must be a PKCS#8 PEM (-----BEGIN PRIVATE KEY-----)',
  );
/** A JWT in its compact form: three base64url parts. */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export interface AuthFields {
  auth_type: AuthType;
  auth_name: string | null;
  /** Whether a secret is (or will be) stored. */
  has_secret: boolean;
  /** A secret sent with auth_type none is refused rather than stored unused. */
  secret_sent: boolean;
  /** The secret sent, to check its shape (oauth_jwt_bearer: a JWT); null when none is sent. */
  secret_value?: string | null;
  /** The pre-registered OAuth client, as it will be stored. */
  oauth_client_id?: string | null;
  has_oauth_client_secret?: boolean;
  has_oauth_private_key?: boolean;
  /** The identity provider of auth_type oauth_token_exchange, as it will be stored. */
  idp_issuer?: string | null;
  idp_client_id?: string | null;
  has_idp_client_secret?: boolean;
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
  const secretless = isSecretless(auth.auth_type);
  if (!secretless && !auth.has_secret) {
    problems.push({ path: 'auth_secret', message: `is required for auth_type ${auth.auth_type}` });
  }
  if (secretless && (auth.secret_sent || auth.has_secret)) {
    problems.push({ path: 'auth_secret', message: `is not used with auth_type ${auth.auth_type}` });
  }
  if (auth.auth_type === 'oauth_jwt_bearer' && auth.secret_value && !JWT_SHAPE.test(auth.secret_value))
    problems.push({ path: 'auth_secret', message: 'must be the workload JWT (header.payload.signature)' });
  problems.push(...clientProblems(auth), ...identityProviderProblems(auth));
  return problems;
}

/** auth_type oauth_token_exchange needs its identity provider and both clients; no other takes them. */
function identityProviderProblems(auth: AuthFields): Array<{ path: string; message: string }> {
  const problems: Array<{ path: string; message: string }> = [];
  if (auth.auth_type !== 'oauth_token_exchange') {
    for (const [path, set] of [
      ['idp_issuer', auth.idp_issuer],
      ['idp_client_id', auth.idp_client_id],
      ['idp_client_secret', auth.has_idp_client_secret],
    ] as const)
      if (set) problems.push({ path, message: 'is only allowed for auth_type oauth_token_exchange' });
    return problems;
  }
  for (const [path, set] of [
    ['idp_issuer', auth.idp_issuer],
    ['idp_client_id', auth.idp_client_id],
    ['oauth_client_id', auth.oauth_client_id],
  ] as const)
    if (!set) problems.push({ path, message: 'is required for auth_type oauth_token_exchange' });
  return problems;
}

/** The OAuth client fields: which auth types take them, and how the client authenticates. */
function clientProblems(auth: AuthFields): Array<{ path: string; message: string }> {
  const problems: Array<{ path: string; message: string }> = [];
  const keyed = takesPrivateKey(auth.auth_type);
  if (!takesClient(auth.auth_type) && auth.oauth_client_id)
    problems.push({
      path: 'oauth_client_id',
      message:
        'is only allowed for auth_type oauth, oauth_client_credentials, oauth_jwt_bearer or oauth_token_exchange',
    });
  if (!auth.oauth_client_id && auth.has_oauth_client_secret)
    problems.push({ path: 'oauth_client_secret', message: 'needs oauth_client_id' });
  if (!keyed && auth.has_oauth_private_key)
    problems.push({
      path: 'oauth_private_key',
      message:
        'is only allowed for auth_type oauth_client_credentials, oauth_jwt_bearer or oauth_token_exchange',
    });
  else if (!auth.oauth_client_id && auth.has_oauth_private_key)
    problems.push({ path: 'oauth_private_key', message: 'needs oauth_client_id' });
  if (auth.has_oauth_private_key && auth.has_oauth_client_secret)
    problems.push({
      path: 'oauth_private_key',
      message: 'is not used beside oauth_client_secret: the client authenticates with one of them',
    });
  if (auth.auth_type === 'oauth_client_credentials') {
    if (!auth.oauth_client_id)
      problems.push({
        path: 'oauth_client_id',
        message: 'is required for auth_type oauth_client_credentials',
      });
    else if (!auth.has_oauth_client_secret && !auth.has_oauth_private_key)
      problems.push({
        path: 'oauth_client_secret',
        message: 'or oauth_private_key is required for auth_type oauth_client_credentials',
      });
  }
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
    oauth_private_key: privateKeySchema.nullable().default(null),
    idp_issuer: httpUrlSchema.nullable().default(null),
    idp_client_id: clientIdSchema.nullable().default(null),
    idp_client_secret: secretSchema.nullable().default(null),
  })
  .superRefine((input, ctx) => {
    const secret = input.auth_secret !== null;
    const fields = {
      ...input,
      has_secret: secret,
      secret_sent: secret,
      secret_value: input.auth_secret,
      has_oauth_client_secret: input.oauth_client_secret !== null,
      has_oauth_private_key: input.oauth_private_key !== null,
      has_idp_client_secret: input.idp_client_secret !== null,
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
    /** Omitted keeps the stored key; null removes it. A new key replaces a stored secret, and back. */
    oauth_private_key: privateKeySchema.nullable().optional(),
    /** The identity provider (auth_type oauth_token_exchange); null removes it. */
    idp_issuer: httpUrlSchema.nullable().optional(),
    idp_client_id: clientIdSchema.nullable().optional(),
    /** Omitted keeps the stored secret while idp_client_id stays; null removes it. */
    idp_client_secret: secretSchema.nullable().optional(),
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
