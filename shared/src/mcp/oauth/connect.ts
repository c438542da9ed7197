import { s256 } from '../../auth/oauth/pkce';
import { randomBytes, toBase64Url } from '../../util/encoding';
import { type DpopAlgorithm, type DpopKey, newDpopKey } from './dpop';
import type { UpstreamOAuthDeps, UpstreamTokens } from './ports';
import { type ServerRef, upstreamClientFor } from './register';
import { tokenRequest } from './token-request';

/**
 * Sluice as the OAuth client of an upstream MCP server registered with auth_type oauth: each
 * user connects their own account once (from the web UI), and the gateway then calls the
 * server with that user's token, refreshed as it expires.
 */
export interface ConnectingServer extends ServerRef {
  name: string;
}

interface PendingConnect {
  serverId: string;
  serverName: string;
  userId: string;
  verifier: string;
  resource: string;
  /** The authorization server takes DPoP proofs: the connection gets a key of this algorithm. */
  dpopAlgorithm?: DpopAlgorithm | null;
}

/** A user's credential for one call: the access token, and the key it is bound to (DPoP) or null. */
export interface UpstreamCredential {
  token: string;
  dpopKey: DpopKey | null;
}

const PENDING_TTL_SECONDS = 600;
/** A token this close to its expiry is refreshed before use. */
const EXPIRY_MARGIN_MS = 30_000;
const stateKey = (state: string) => `sluice:mcp-oauth:state:${state}`;

/** The upstream's authorization URL to send the user's browser to. */
export async function startUpstreamConnect(
  server: ConnectingServer,
  userId: string,
  deps: UpstreamOAuthDeps,
): Promise<string> {
  const { client, dpopAlgorithm } = await upstreamClientFor(server, deps);
  const verifier = toBase64Url(randomBytes(32));
  const state = toBase64Url(randomBytes(24));
  const pending: PendingConnect = {
    serverId: server.id,
    serverName: server.name,
    userId,
    verifier,
    resource: client.resource,
    dpopAlgorithm,
  };
  await deps.kv.set(stateKey(state), JSON.stringify(pending), { ex: PENDING_TTL_SECONDS });
  const url = new URL(client.authorizationEndpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', client.clientId);
  url.searchParams.set('redirect_uri', deps.callbackUrl);
  url.searchParams.set('code_challenge', await s256(verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('state', state);
  url.searchParams.set('resource', client.resource);
  if (client.scope) url.searchParams.set('scope', client.scope);
  return url.toString();
}

/** The browser came back from the upstream: the code becomes the user's tokens. */
export async function finishUpstreamConnect(
  query: Record<string, string | undefined>,
  deps: UpstreamOAuthDeps,
): Promise<{ serverName: string }> {
  const stored = query.state ? await deps.kv.get(stateKey(query.state)) : null;
  if (
    stored === null ||
    stored === undefined ||
    !query.state ||
    (await deps.kv.del(stateKey(query.state))) !== 1
  )
    throw new Error('This connection attempt expired or was already used; start again');
  const pending = (typeof stored === 'string' ? JSON.parse(stored) : stored) as PendingConnect;
  const client = await deps.store.client(pending.serverId);
  if (!client) throw new Error('The server was removed meanwhile');
  // RFC 9207: an answer from another issuer (a mix-up) is refused, and one that must name it does.
  if (query.iss !== undefined ? query.iss !== client.issuer : client.issSupported)
    throw new Error(`${pending.serverName}: the answer did not come from ${client.issuer}`);
  if (query.error) throw new Error(`${pending.serverName}: ${query.error_description ?? query.error}`);
  if (!query.code) throw new Error(`${pending.serverName} sent no authorization code`);
  // The key is made here, not with the pending state: the private key never sits unsealed in the KV.
  const dpopKey = pending.dpopAlgorithm ? await newDpopKey(pending.dpopAlgorithm) : null;
  const form = {
    grant_type: 'authorization_code',
    code: query.code,
    redirect_uri: deps.callbackUrl,
    code_verifier: pending.verifier,
    resource: pending.resource,
  };
  const tokens = await tokenRequest(client, deps, form, dpopKey);
  await deps.store.saveTokens(pending.serverId, pending.userId, tokens);
  return { serverName: pending.serverName };
}

/**
 * The user's access token for the server, refreshed when it is about to expire (a failed
 * refresh forgets the connection: the user must connect again); null when not connected.
 */
export async function upstreamAccessToken(
  server: ConnectingServer,
  userId: string,
  deps: UpstreamOAuthDeps,
): Promise<UpstreamCredential | null> {
  const tokens = await deps.store.tokens(server.id, userId);
  if (!tokens) return null;
  const fresh = !tokens.expiresAt || tokens.expiresAt.getTime() - EXPIRY_MARGIN_MS > deps.now().getTime();
  if (fresh) return credentialOf(tokens);
  const client = await deps.store.client(server.id);
  if (!tokens.refreshToken || !client) {
    await deps.store.deleteTokens(server.id, userId);
    return null;
  }
  try {
    const form = {
      grant_type: 'refresh_token',
      refresh_token: tokens.refreshToken,
      resource: client.resource,
    };
    const renewed = await tokenRequest(client, deps, form, tokens.dpopKey ?? null);
    await deps.store.saveTokens(server.id, userId, {
      ...renewed,
      refreshToken: renewed.refreshToken ?? tokens.refreshToken,
    });
    return credentialOf(renewed);
  } catch {
    await deps.store.deleteTokens(server.id, userId);
    return null;
  }
}

function credentialOf(tokens: UpstreamTokens): UpstreamCredential {
  return {
    token: tokens.accessToken,
    dpopKey: tokens.tokenType === 'DPoP' ? (tokens.dpopKey ?? null) : null,
  };
}
