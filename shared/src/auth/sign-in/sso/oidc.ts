import { createRemoteJWKSet, type JWTPayload, jwtVerify } from 'jose';
import * as z from 'zod';

/**
 * The relying-party side of OIDC: discovery, the token exchange and ID-token validation. Keys
 * come from the provider's JWKS through jose's remote key set, which refetches when a token
 * names a key it has not seen (key rotation) and caches otherwise.
 */
const discoverySchema = z.object({
  issuer: z.string(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
  userinfo_endpoint: z.url().optional(),
});
export type OidcDiscovery = z.infer<typeof discoverySchema>;

/** An SSO sign-in refused by the provider or by our checks: 401 and an auth.login_failed record. */
export class SsoRefused extends Error {
  override name = 'SsoRefused';
}

const DISCOVERY_TTL_MS = 10 * 60 * 1000;
const discoveries = new Map<string, { at: number; value: Promise<OidcDiscovery> }>();
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

export function discover(issuer: string, fetchImpl: typeof fetch = fetch): Promise<OidcDiscovery> {
  const cached = discoveries.get(issuer);
  if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.value;
  const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  const value = fetchImpl(url).then(async (res) => {
    if (!res.ok) throw new SsoRefused(`OIDC discovery at ${url} answered ${res.status}`);
    const parsed = discoverySchema.safeParse(await res.json());
    if (!parsed.success) throw new SsoRefused(`OIDC discovery at ${url} is incomplete`);
    return parsed.data;
  });
  discoveries.set(issuer, { at: Date.now(), value });
  value.catch(() => discoveries.delete(issuer));
  return value;
}

function keySetFor(jwksUri: string): ReturnType<typeof createRemoteJWKSet> {
  let keys = keySets.get(jwksUri);
  if (!keys) {
    keys = createRemoteJWKSet(new URL(jwksUri));
    keySets.set(jwksUri, keys);
  }
  return keys;
}

export interface TokenExchange {
  discovery: OidcDiscovery;
  code: string;
  codeVerifier: string;
  redirectUri: string;
  clientId: string;
  clientSecret: string;
}

export interface ProviderTokens {
  idToken: string;
  accessToken: string | null;
}

/** authorization_code → ID token and access token (client_secret_basic). */
export async function exchangeCode(
  exchange: TokenExchange,
  fetchImpl: typeof fetch = fetch,
): Promise<ProviderTokens> {
  const basic = btoa(`${encodeURIComponent(exchange.clientId)}:${encodeURIComponent(exchange.clientSecret)}`);
  const res = await fetchImpl(exchange.discovery.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: exchange.code,
      redirect_uri: exchange.redirectUri,
      code_verifier: exchange.codeVerifier,
    }),
  }).catch((error: unknown) => {
    throw new SsoRefused(`token endpoint unreachable: ${String(error)}`);
  });
  const body = (await res.json().catch(() => ({}))) as {
    id_token?: unknown;
    access_token?: unknown;
    error?: unknown;
  };
  if (!res.ok || typeof body.id_token !== 'string') {
    throw new SsoRefused(`token exchange failed: ${res.status} ${String(body.error ?? 'no id_token')}`);
  }
  return {
    idToken: body.id_token,
    accessToken: typeof body.access_token === 'string' ? body.access_token : null,
  };
}

/**
 * Providers may keep profile claims (email, name) out of the ID token and serve them at the
 * userinfo endpoint instead; those are taken only for the same subject.
 */
export async function userInfoClaims(
  discovery: OidcDiscovery,
  accessToken: string | null,
  subject: string | undefined,
  fetchImpl: typeof fetch = fetch,
): Promise<Record<string, unknown>> {
  if (!discovery.userinfo_endpoint || !accessToken) return {};
  const res = await fetchImpl(discovery.userinfo_endpoint, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  if (!res.ok) throw new SsoRefused(`userinfo answered ${res.status}`);
  const claims = (await res.json()) as Record<string, unknown>;
  if (claims.sub !== subject) throw new SsoRefused('userinfo is about another subject');
  return claims;
}

/** Signature (the provider's JWKS), issuer, audience, expiry (with leeway) and nonce. */
export async function verifyIdToken(
  idToken: string,
  expected: { discovery: OidcDiscovery; clientId: string; nonce: string; leewaySeconds: number },
): Promise<JWTPayload> {
  try {
    const { payload } = await jwtVerify(idToken, keySetFor(expected.discovery.jwks_uri), {
      issuer: expected.discovery.issuer,
      audience: expected.clientId,
      clockTolerance: expected.leewaySeconds,
    });
    if (payload.nonce !== expected.nonce) throw new SsoRefused('ID token nonce does not match');
    return payload;
  } catch (error) {
    if (error instanceof SsoRefused) throw error;
    throw new SsoRefused(`ID token rejected: ${error instanceof Error ? error.message : String(error)}`);
  }
}
