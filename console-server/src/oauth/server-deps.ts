import type { FetchDocument, OAuthServerDeps } from '@sluice/shared/auth/oauth';
import { oauthClientStore, oauthGrantStore, oauthUsers } from '@sluice/shared/db/repos';
import type { Context } from 'hono';
import type { ConsoleEnv } from '../types';

const DOCUMENT_TIMEOUT_MS = 5_000;
const DOCUMENT_MAX_BYTES = 64 * 1024;

/** A client ID metadata document: JSON, fetched without cookies or redirects, small. */
export const fetchClientDocument: FetchDocument = async (url) => {
  const response = await fetch(url, {
    headers: { accept: 'application/json' },
    redirect: 'error',
    signal: AbortSignal.timeout(DOCUMENT_TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const text = await response.text();
  if (text.length > DOCUMENT_MAX_BYTES) throw new Error('document too large');
  return JSON.parse(text);
};

/**
 * The issuer is SLUICE_CONSOLE_URL, the console's public URL, which the gateway is given too
 * (npm start and npm run serve set it); without it, the URL the request came to.
 */
export function issuerOf(c: Context<ConsoleEnv>): string {
  return c.var.deps.oauth.issuer ?? new URL(c.req.url).origin;
}

/** The authorization server's ports for one request. */
export function oauthServer(c: Context<ConsoleEnv>): OAuthServerDeps {
  const { deps } = c.var;
  return {
    issuer: issuerOf(c),
    gatewayUrl: deps.oauth.gatewayUrl,
    clients: oauthClientStore(deps.db),
    fetchDocument: deps.oauth.fetchDocument,
    kv: deps.redis,
    grants: oauthGrantStore(deps.db),
    users: oauthUsers(deps.db),
    tokens: deps.oauth.tokens,
    now: () => new Date(),
  };
}
