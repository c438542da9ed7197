import * as z from 'zod';

/** Where an upstream MCP server's users sign in, as its metadata says (RFC 9728, RFC 8414). */
export interface UpstreamAuthorization {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  registrationEndpoint: string | null;
  /** The authorization server takes client ID metadata documents. */
  metadataDocuments: boolean;
  /** The resource identifier, exactly as the server's metadata publishes it (else its URL). */
  resource: string;
  /** What to ask for: the resource's scopes_supported (or the 401's scope); null: none. */
  scope: string | null;
  tokenAuthMethods: string[];
  issSupported: boolean;
  /** `dpop_signing_alg_values_supported` (RFC 9449 § 5.1): it binds tokens to keys; empty: it does not. */
  dpopAlgorithms: string[];
}

const DISCOVERY_TIMEOUT_MS = 10_000;

const resourceMetadata = z
  .object({
    resource: z.string().optional(),
    authorization_servers: z.array(z.string()).min(1),
    scopes_supported: z.array(z.string()).optional(),
  })
  .passthrough();
const serverMetadata = z
  .object({
    issuer: z.string(),
    // Absent where nobody signs in with a browser (a server of client credentials only).
    authorization_endpoint: z.string().optional(),
    token_endpoint: z.string(),
    grant_types_supported: z.array(z.string()).optional(),
    token_endpoint_auth_signing_alg_values_supported: z.array(z.string()).optional(),
    registration_endpoint: z.string().optional(),
    client_id_metadata_document_supported: z.boolean().optional(),
    code_challenge_methods_supported: z.array(z.string()).optional(),
    token_endpoint_auth_methods_supported: z.array(z.string()).optional(),
    authorization_response_iss_parameter_supported: z.boolean().optional(),
    dpop_signing_alg_values_supported: z.array(z.string()).optional(),
  })
  .passthrough();
export type AuthorizationServerMetadata = z.infer<typeof serverMetadata>;

/** An upstream's authorization server, as found from the server's URL. */
export interface AuthorizationServerFound {
  issuer: string;
  /** The resource identifier, exactly as the server's metadata publishes it (else its URL). */
  resource: string;
  /** What to ask for: the resource's scopes_supported (or the 401's scope); null: none. */
  scope: string | null;
  metadata: AuthorizationServerMetadata;
}

/** `resource_metadata="…"` and `scope="…"` of a Bearer challenge. */
function challengeParams(header: string | null): { metadata: string | null; scope: string | null } {
  const param = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(header ?? '')?.[1] ?? null;
  return { metadata: param('resource_metadata'), scope: param('scope') };
}

async function getJson(url: string, fetchImpl: typeof fetch): Promise<unknown | null> {
  const response = await fetchImpl(url, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS),
  }).catch(() => null);
  if (!response?.ok) return null;
  return response.json().catch(() => null);
}

/** RFC 9728 § 3.1: `https://h/p` has its metadata at `https://h/.well-known/oauth-protected-resource/p`, then the root. */
function resourceWellKnown(url: URL): string[] {
  const path = url.pathname.replace(/\/+$/, '');
  const base = `${url.origin}/.well-known/oauth-protected-resource`;
  return [...new Set([`${base}${path}`, base])];
}

/** An issuer with a path has its metadata there only (RFC 8414 § 3.1), or (OpenID) under the path. */
function serverWellKnown(issuer: URL): string[] {
  const path = issuer.pathname.replace(/\/+$/, '');
  const { origin } = issuer;
  if (path === '')
    return [`${origin}/.well-known/oauth-authorization-server`, `${origin}/.well-known/openid-configuration`];
  return [
    `${origin}/.well-known/oauth-authorization-server${path}`,
    `${origin}/.well-known/openid-configuration${path}`,
    `${origin}${path}/.well-known/openid-configuration`,
  ];
}

/** A resource identifier covers the server's URL: same origin, its path a prefix of the server's. */
function coversServer(resource: string, server: string): boolean {
  try {
    const [r, s] = [new URL(resource), new URL(server)];
    const path = r.pathname.replace(/\/+$/, '');
    const serverPath = s.pathname.replace(/\/+$/, '');
    return r.origin === s.origin && (serverPath === path || serverPath.startsWith(`${path}/`));
  } catch {
    return false;
  }
}

async function resourceMetadataOf(endpointUrl: string, fetchImpl: typeof fetch) {
  const probe = await fetchImpl(endpointUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'ping' }),
    signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS),
  }).catch(() => null);
  await probe?.body?.cancel().catch(() => {});
  const challenge = challengeParams(probe?.headers.get('www-authenticate') ?? null);
  for (const url of challenge.metadata ? [challenge.metadata] : resourceWellKnown(new URL(endpointUrl))) {
    const parsed = resourceMetadata.safeParse(await getJson(url, fetchImpl));
    if (parsed.success) return { resource: parsed.data, scope: challenge.scope };
  }
  return { resource: null, scope: challenge.scope };
}

/**
 * The MCP authorization discovery a client does: the server's 401 challenge (or its well-known
 * protected-resource metadata) names the authorization server, whose own metadata gives the
 * endpoints. Throws with what is missing or inconsistent.
 */
export async function discoverAuthorizationServer(
  endpointUrl: string,
  fetchImpl: typeof fetch,
): Promise<AuthorizationServerFound> {
  const { resource, scope } = await resourceMetadataOf(endpointUrl, fetchImpl);
  // A resource that names another URL is not this server's (RFC 9728 § 3.3).
  if (resource?.resource !== undefined && !coversServer(resource.resource, endpointUrl))
    throw new Error(`its resource metadata names another resource (${resource.resource})`);
  // Servers of the 2025-03-26 revision have no resource metadata: their origin is the issuer.
  const issuer = resource?.authorization_servers[0] ?? new URL(endpointUrl).origin;
  const meta = await issuerMetadata(issuer, fetchImpl);
  return {
    issuer: meta.issuer,
    resource: resource?.resource ?? endpointUrl,
    scope: scope ?? resource?.scopes_supported?.join(' ') ?? null,
    metadata: meta,
  };
}

/**
 * An authorization server's (or an OpenID provider's) metadata, from its issuer identifier
 * (RFC 8414, OpenID Discovery): the issuer it names must be that one.
 */
export async function issuerMetadata(
  issuer: string,
  fetchImpl: typeof fetch,
): Promise<AuthorizationServerMetadata> {
  for (const url of serverWellKnown(new URL(issuer))) {
    const parsed = serverMetadata.safeParse(await getJson(url, fetchImpl));
    if (!parsed.success) continue;
    const meta = parsed.data;
    if (meta.issuer.replace(/\/+$/, '') !== issuer.replace(/\/+$/, ''))
      throw new Error(`${url} names another issuer (${meta.issuer})`);
    return meta;
  }
  throw new Error(`no authorization server metadata found for ${issuer}`);
}

/** Where the server's users sign in: an authorization server with an authorization endpoint and PKCE S256. */
export async function discoverUpstreamAuthorization(
  endpointUrl: string,
  fetchImpl: typeof fetch,
): Promise<UpstreamAuthorization> {
  const {
    issuer,
    resource,
    scope,
    metadata: meta,
  } = await discoverAuthorizationServer(endpointUrl, fetchImpl);
  const methods = meta.code_challenge_methods_supported;
  if (methods && !methods.includes('S256')) throw new Error(`${issuer} does not support PKCE S256`);
  if (!meta.authorization_endpoint)
    throw new Error(`${issuer} has no authorization endpoint for users to sign in at`);
  return {
    issuer,
    authorizationEndpoint: meta.authorization_endpoint,
    tokenEndpoint: meta.token_endpoint,
    registrationEndpoint: meta.registration_endpoint ?? null,
    resource,
    metadataDocuments: meta.client_id_metadata_document_supported === true,
    scope,
    tokenAuthMethods: meta.token_endpoint_auth_methods_supported ?? ['client_secret_basic'],
    issSupported: meta.authorization_response_iss_parameter_supported === true,
    dpopAlgorithms: meta.dpop_signing_alg_values_supported ?? [],
  };
}
