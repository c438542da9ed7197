import { randomBytes, toBase64Url } from '../../util/encoding';
import { MCP_SCOPE } from './access-token';
import { registeredRedirect, resolveClient } from './clients';
import { invalidRequest, OAuthError } from './errors';
import { PKCE_CHALLENGE } from './pkce';
import type { OAuthServerDeps } from './ports';

/** An authorization request waiting for the user's consent in the web UI. */
export interface PendingAuthorization {
  id: string;
  clientId: string;
  clientName: string;
  redirectUri: string;
  codeChallenge: string;
  state: string | null;
  scope: string;
  resource: string;
}

/** What an authorization code stands for, until it is redeemed (once) at the token endpoint. */
export interface IssuedCode {
  grantId: string;
  userId: string;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  resource: string;
  scope: string;
}

const PENDING_TTL_SECONDS = 600;
const CODE_TTL_SECONDS = 60;
const pendingKey = (id: string) => `sluice:oauth:request:${id}`;
export const codeKey = (code: string) => `sluice:oauth:code:${code}`;

export type AuthorizationStart =
  | { kind: 'consent'; pending: PendingAuthorization }
  | { kind: 'redirect'; url: string };

/**
 * GET /oauth/authorize. A bad client or redirect URI is answered here (never redirected to,
 * RFC 6749 § 4.1.2.1); any other problem goes back to the client's redirect URI as an error.
 */
export async function startAuthorization(
  query: Record<string, string | undefined>,
  deps: OAuthServerDeps,
): Promise<AuthorizationStart> {
  if (!query.client_id) throw invalidRequest('client_id is required');
  const client = await resolveClient(query.client_id, deps.clients, deps.fetchDocument, deps.now());
  const redirectUri = registeredRedirect(client, query.redirect_uri);
  const back = (error: string, description: string) => ({
    kind: 'redirect' as const,
    url: redirectWith(
      redirectUri,
      { error, error_description: description, state: query.state ?? null },
      deps.issuer,
    ),
  });
  if (query.response_type !== 'code') return back('unsupported_response_type', 'response_type must be code');
  if (!query.code_challenge || !PKCE_CHALLENGE.test(query.code_challenge))
    return back('invalid_request', 'code_challenge (S256, 43 characters) is required');
  if ((query.code_challenge_method ?? 'plain') !== 'S256')
    return back('invalid_request', 'code_challenge_method must be S256');
  const scope = scopeOf(query.scope);
  if (scope === null) return back('invalid_scope', `The only scope is ${MCP_SCOPE}`);
  const resource = resourceOf(query.resource, deps.gatewayUrl);
  if (resource === null)
    return back('invalid_target', 'resource must be the gateway /mcp or /mcp/{server} URL');
  const pending: PendingAuthorization = {
    id: toBase64Url(randomBytes(18)),
    clientId: client.clientId,
    clientName: client.clientName,
    redirectUri,
    codeChallenge: query.code_challenge,
    state: query.state ?? null,
    scope,
    resource,
  };
  await deps.kv.set(pendingKey(pending.id), JSON.stringify(pending), { ex: PENDING_TTL_SECONDS });
  return { kind: 'consent', pending };
}

/** A pending request, for the consent screen; null once decided or expired. */
export async function pendingAuthorization(
  id: string,
  deps: OAuthServerDeps,
): Promise<PendingAuthorization | null> {
  const stored = await deps.kv.get(pendingKey(id));
  if (stored === null || stored === undefined) return null;
  return (typeof stored === 'string' ? JSON.parse(stored) : stored) as PendingAuthorization;
}

/**
 * The user's answer on the consent screen. Approved: a grant and a one-time code; either way
 * the URL the browser goes back to the client with (state and iss included, RFC 9207).
 */
export async function decideAuthorization(
  id: string,
  userId: string,
  approve: boolean,
  deps: OAuthServerDeps,
): Promise<{ redirectTo: string; grantId: string | null; pending: PendingAuthorization }> {
  const pending = await pendingAuthorization(id, deps);
  if (!pending || (await deps.kv.del(pendingKey(id))) !== 1)
    throw new OAuthError(
      404,
      'invalid_request',
      'This authorization request has expired or was already answered',
    );
  if (!approve) {
    const redirectTo = redirectWith(
      pending.redirectUri,
      { error: 'access_denied', error_description: 'The user declined', state: pending.state },
      deps.issuer,
    );
    return { redirectTo, grantId: null, pending };
  }
  const grant = await deps.grants.create({
    userId,
    clientId: pending.clientId,
    clientName: pending.clientName,
    resource: pending.resource,
    scope: pending.scope,
  });
  const code = toBase64Url(randomBytes(32));
  const issued: IssuedCode = {
    grantId: grant.id,
    userId,
    clientId: pending.clientId,
    redirectUri: pending.redirectUri,
    codeChallenge: pending.codeChallenge,
    resource: pending.resource,
    scope: pending.scope,
  };
  await deps.kv.set(codeKey(code), JSON.stringify(issued), { ex: CODE_TTL_SECONDS });
  return {
    redirectTo: redirectWith(pending.redirectUri, { code, state: pending.state }, deps.issuer),
    grantId: grant.id,
    pending,
  };
}

function redirectWith(base: string, params: Record<string, string | null>, issuer: string): string {
  const url = new URL(base);
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  url.searchParams.set('iss', issuer);
  return url.toString();
}

/** Space-separated scopes; only `mcp` exists. Absent or empty: `mcp`. */
export function scopeOf(requested: string | undefined): string | null {
  const scopes = (requested ?? '').split(' ').filter(Boolean);
  return scopes.every((s) => s === MCP_SCOPE) ? MCP_SCOPE : null;
}

/**
 * The resource a token will be for (RFC 8707): the gateway's /mcp or /mcp/{server}. Without
 * a configured gateway URL any URL of that shape is taken (the gateway checks its own).
 */
export function resourceOf(requested: string | undefined, gatewayUrl: string | null): string | null {
  const base = gatewayUrl?.replace(/\/+$/, '') ?? null;
  if (requested === undefined || requested === '') return base === null ? null : `${base}/mcp`;
  let url: URL;
  try {
    url = new URL(requested);
  } catch {
    return null;
  }
  if (url.search !== '' || url.hash !== '' || !/^\/mcp(\/[A-Za-z0-9._~-]+)?$/.test(url.pathname)) return null;
  const canonical = `${url.origin}${url.pathname}`;
  return base === null || canonical.startsWith(`${base}/mcp`) ? canonical : null;
}
