import { z } from 'zod';

/** Where an upstream MCP server's users sign in, as its metadata says (RFC 9728, RFC 8414). */
export interface UpstreamAuthorization {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  registrationEndpoint: string | null;
  /** The authorization server takes client ID metadata documents. */
  metadataDocuments: boolean;
  /** What to ask for: the resource's scopes_supported (or the 401's scope); null: none. */
  scope: string | null;
}

const DISCOVERY_TIMEOUT_MS = 10_000;

const resourceMetadata = z
  .object({
    authorization_servers: z.array(z.string()).min(1),
    scopes_supported: z.array(z.string()).optional(),
  })
  .passthrough();
const serverMetadata = z
  .object({
    issuer: z.string(),
    authorization_endpoint: z.string(),
    token_endpoint: z.string(),
    registration_endpoint: z.string().optional(),
    client_id_metadata_document_supported: z.boolean().optional(),
    code_challenge_methods_supported: z.array(z.string()).optional(),
  })
  .passthrough();

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

/** RFC 9728 § 3.1: the metadata of `https://h/p` is at `https://h/.well-known/oauth-protected-resource/p`. */
function wellKnown(url: URL, suffix: string): string[] {
  const path = url.pathname.replace(/\/+$/, '');
  return [...new Set([`${url.origin}/.well-known/${suffix}${path}`, `${url.origin}/.well-known/${suffix}`])];
}

/**
 * The MCP authorization discovery a client does: the server's 401 challenge (or its well-known
 * protected-resource metadata) names the authorization server, whose own metadata gives the
 * endpoints. Throws with what is missing.
 */
export async function discoverUpstreamAuthorization(
  endpointUrl: string,
  fetchImpl: typeof fetch,
): Promise<UpstreamAuthorization> {
  const endpoint = new URL(endpointUrl);
  const probe = await fetchImpl(endpointUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'ping' }),
    signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS),
  }).catch(() => null);
  await probe?.body?.cancel().catch(() => {});
  const challenge = challengeParams(probe?.headers.get('www-authenticate') ?? null);
  let resource: z.infer<typeof resourceMetadata> | null = null;
  for (const url of challenge.metadata
    ? [challenge.metadata]
    : wellKnown(endpoint, 'oauth-protected-resource')) {
    const parsed = resourceMetadata.safeParse(await getJson(url, fetchImpl));
    if (parsed.success) {
      resource = parsed.data;
      break;
    }
  }
  // Servers of the 2025-03-26 revision have no resource metadata: their origin is the issuer.
  const issuer = resource?.authorization_servers[0] ?? endpoint.origin;
  const issuerUrl = new URL(issuer);
  const candidates = [
    ...wellKnown(issuerUrl, 'oauth-authorization-server'),
    ...wellKnown(issuerUrl, 'openid-configuration'),
  ];
  for (const url of candidates) {
    const parsed = serverMetadata.safeParse(await getJson(url, fetchImpl));
    if (!parsed.success) continue;
    const meta = parsed.data;
    const methods = meta.code_challenge_methods_supported;
    if (methods && !methods.includes('S256')) throw new Error(`${issuer} does not support PKCE S256`);
    return {
      issuer: meta.issuer,
      authorizationEndpoint: meta.authorization_endpoint,
      tokenEndpoint: meta.token_endpoint,
      registrationEndpoint: meta.registration_endpoint ?? null,
      metadataDocuments: meta.client_id_metadata_document_supported === true,
      scope: challenge.scope ?? resource?.scopes_supported?.join(' ') ?? null,
    };
  }
  throw new Error(`no authorization server metadata found for ${issuer}`);
}
