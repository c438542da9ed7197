import { discoverUpstreamAuthorization, type UpstreamAuthorization } from './discovery';
import { type DpopAlgorithm, dpopAlgorithmFor } from './dpop';
import { basicAuthorization } from './machine-grants';
import type { UpstreamClient, UpstreamOAuthDeps } from './ports';
import { unionOfScopes } from './scopes';

const REGISTRATION_TIMEOUT_MS = 10_000;
type AuthMethod = UpstreamClient['tokenAuthMethod'];

export interface ServerRef {
  id: string;
  endpointUrl: string;
  /** The client the admin registered at the authorization server beforehand, opened; null: none. */
  preRegistered?: PreRegisteredClient | null;
}

export interface PreRegisteredClient {
  clientId: string;
  clientSecret: string | null;
}

/**
 * The client to sign this server's users in with: discovered afresh on every connect, so an
 * authorization server that changed (RFC 9728 metadata naming a new one) gets a new client;
 * the one registered before is kept while it is the same issuer. With it, the DPoP algorithm
 * the authorization server takes proofs in (null: it binds no tokens).
 */
export async function upstreamClientFor(
  server: ServerRef,
  deps: UpstreamOAuthDeps,
): Promise<{ client: UpstreamClient; dpopAlgorithm: DpopAlgorithm | null }> {
  const found = await discoverUpstreamAuthorization(server.endpointUrl, deps.fetch);
  const known = await deps.store.client(server.id);
  const sameIssuer = known?.issuer === found.issuer;
  const base = {
    serverId: server.id,
    issuer: found.issuer,
    authorizationEndpoint: found.authorizationEndpoint,
    tokenEndpoint: found.tokenEndpoint,
    resource: found.resource,
    // What was asked of this authorization server before (a step-up's scope) is asked again.
    scope: sameIssuer ? unionOfScopes(found.scope, known.scope) : found.scope,
    issSupported: found.issSupported,
  };
  const pre = server.preRegistered;
  const client = pre
    ? { ...base, ...pre, tokenAuthMethod: preRegisteredMethod(pre, found.tokenAuthMethods) }
    : known && sameIssuer
      ? { ...known, ...base }
      : found.metadataDocuments && deps.clientMetadataUrl
        ? { ...base, clientId: deps.clientMetadataUrl, clientSecret: null, tokenAuthMethod: 'none' as const }
        : { ...base, ...(await register(found, deps)) };
  await deps.store.saveClient(client);
  return { client, dpopAlgorithm: dpopAlgorithmFor(found.dpopAlgorithms) };
}

/** A pre-registered client's method: none without a secret, else Basic where the server takes it. */
function preRegisteredMethod(client: PreRegisteredClient, supported: readonly string[]): AuthMethod {
  if (client.clientSecret === null) return 'none';
  return supported.includes('client_secret_basic') || !supported.includes('client_secret_post')
    ? 'client_secret_basic'
    : 'client_secret_post';
}

/** The method to ask for: none where taken (a public client), else the server's preference. */
function preferredMethod(supported: readonly string[]): AuthMethod {
  if (supported.includes('none')) return 'none';
  return supported.includes('client_secret_basic') ? 'client_secret_basic' : 'client_secret_post';
}

/** RFC 7591 dynamic registration, as a web application (SEP-837) with the console's callback. */
async function register(found: UpstreamAuthorization, deps: UpstreamOAuthDeps) {
  if (!found.registrationEndpoint)
    throw new Error(`${found.issuer} offers neither client registration nor client ID metadata documents`);
  const asked = preferredMethod(found.tokenAuthMethods);
  const response = await deps.fetch(found.registrationEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({
      client_name: 'Sluice gateway',
      application_type: 'web',
      redirect_uris: [deps.callbackUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: asked,
      ...(found.scope ? { scope: found.scope } : {}),
    }),
    signal: AbortSignal.timeout(REGISTRATION_TIMEOUT_MS),
  });
  const body = (await response.json().catch(() => ({}))) as {
    client_id?: string;
    client_secret?: string;
    token_endpoint_auth_method?: string;
  };
  if (!response.ok || !body.client_id)
    throw new Error(`registration at ${found.registrationEndpoint} failed (${response.status})`);
  const granted = body.token_endpoint_auth_method as AuthMethod | undefined;
  const secret = body.client_secret ?? null;
  return {
    clientId: body.client_id,
    clientSecret: secret,
    tokenAuthMethod:
      secret === null ? 'none' : (granted ?? (asked === 'none' ? 'client_secret_basic' : asked)),
  } satisfies Pick<UpstreamClient, 'clientId' | 'clientSecret' | 'tokenAuthMethod'>;
}

/** The client's credentials on a token request, as its method says. */
export function authenticateTokenRequest(
  client: UpstreamClient,
  body: URLSearchParams,
): Record<string, string> {
  if (client.tokenAuthMethod === 'client_secret_basic' && client.clientSecret !== null) {
    return { authorization: basicAuthorization(client.clientId, client.clientSecret) };
  }
  body.set('client_id', client.clientId);
  if (client.tokenAuthMethod === 'client_secret_post' && client.clientSecret !== null)
    body.set('client_secret', client.clientSecret);
  return {};
}
