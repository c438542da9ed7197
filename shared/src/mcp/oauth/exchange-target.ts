import { decodeJwt } from 'jose';
import type { McpServerTarget } from '../ports';
import { type ExchangeCredentials, exchangeIdToken } from './exchange-token';
import { MachineSignInFailed } from './machine-token';
import type { UpstreamOAuthDeps, UpstreamTokens } from './ports';

/**
 * auth_type oauth_token_exchange, for one user: the access token Sluice got for them from their
 * ID token (mcp/oauth/exchange-token.ts), exchanged again when it expires while the ID token is
 * good. The ID token is kept sealed with the user's tokens; a refused one is forgotten, so the
 * user is asked to connect again.
 */

/** What the exchange needs of the upstream OAuth deps. */
export type ExchangeDeps = Pick<UpstreamOAuthDeps, 'store' | 'fetch' | 'now'>;

export type ExchangeTarget = Pick<McpServerTarget, 'id' | 'name' | 'endpointUrl'> & {
  exchange: ExchangeCredentials;
};

/** Why an ID token cannot be used for a server: 400 material, said in the user's terms. */
export class IdTokenUnusable extends Error {
  override name = 'IdTokenUnusable';
}

/**
 * The checks Sluice can make itself before the identity provider sees the token: issued by that
 * provider, to Sluice's client there, not expired. Its signature is the provider's to check
 * (it verifies the subject token of every exchange); Sluice trusts nothing in it.
 */
export function checkIdToken(
  idToken: string,
  idp: ExchangeCredentials['idp'],
  now: Date,
): { subject: string } {
  let claims: ReturnType<typeof decodeJwt>;
  try {
    claims = decodeJwt(idToken);
  } catch {
    throw new IdTokenUnusable('id_token is not a JWT');
  }
  const trim = (s: string) => s.replace(/\/+$/, '');
  if (typeof claims.iss !== 'string' || trim(claims.iss) !== trim(idp.issuer))
    throw new IdTokenUnusable(`id_token was not issued by ${idp.issuer}`);
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audiences.includes(idp.clientId))
    throw new IdTokenUnusable(`id_token was not issued to the client ${idp.clientId}`);
  if (typeof claims.exp === 'number' && claims.exp * 1000 <= now.getTime())
    throw new IdTokenUnusable('id_token has expired');
  const email = typeof claims.email === 'string' ? claims.email : null;
  return { subject: email ?? String(claims.sub ?? '') };
}

/** Connecting with an ID token: checked, exchanged at once (so a refusal shows now), then kept. */
export async function connectWithIdToken(
  target: ExchangeTarget,
  userId: string,
  idToken: string,
  deps: ExchangeDeps,
): Promise<{ subject: string; expiresAt: Date }> {
  const { subject } = checkIdToken(idToken, target.exchange.idp, deps.now());
  const token = await exchangeIdToken(target, target.exchange, idToken, deps);
  await deps.store.saveTokens(target.id, userId, tokensOf(token, idToken));
  return { subject, expiresAt: token.expiresAt };
}

/** The user's access token: kept while fresh, else exchanged again; null when they must connect. */
export async function exchangedAccessToken(
  target: ExchangeTarget,
  userId: string,
  deps: ExchangeDeps,
  refused: string | null = null,
): Promise<string | null> {
  const tokens = await deps.store.tokens(target.id, userId);
  if (!tokens?.idToken) return null;
  const fresh =
    tokens.accessToken !== refused &&
    // Stored already early (the exchange keeps it until shortly before it expires).
    tokens.expiresAt !== null &&
    tokens.expiresAt.getTime() > deps.now().getTime();
  if (fresh) return tokens.accessToken;
  try {
    checkIdToken(tokens.idToken, target.exchange.idp, deps.now());
    const token = await exchangeIdToken(target, target.exchange, tokens.idToken, deps);
    await deps.store.saveTokens(target.id, userId, tokensOf(token, tokens.idToken));
    return token.accessToken;
  } catch (error) {
    // An expired or refused ID token will not do better next time; an unreachable provider or a
    // misconfigured client might, once fixed: those are the caller's to see.
    const refusal = error instanceof IdTokenUnusable || isInvalidGrant(error);
    if (!refusal) throw error;
    await deps.store.deleteTokens(target.id, userId);
    return null;
  }
}

const isInvalidGrant = (error: unknown) =>
  error instanceof MachineSignInFailed &&
  (error.data as Record<string, unknown> | undefined)?.error === 'invalid_grant';

function tokensOf(token: { accessToken: string; expiresAt: Date }, idToken: string): UpstreamTokens {
  return { accessToken: token.accessToken, refreshToken: null, expiresAt: token.expiresAt, idToken };
}
