import { randomBytes, sha256Hex, toBase64Url } from '../../util/encoding';
import { ACCESS_TOKEN_TTL_SECONDS, revokedGrantKey } from './access-token';
import { codeKey, type IssuedCode } from './authorize';
import { invalidGrant, invalidRequest, OAuthError } from './errors';
import { verifiesChallenge } from './pkce';
import type { GrantRecord, OAuthServerDeps } from './ports';

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/** POST /oauth/token (form fields): the authorization code and refresh token grants. */
export async function exchangeToken(form: Record<string, string | undefined>, deps: OAuthServerDeps) {
  if (form.grant_type === 'authorization_code') return redeemCode(form, deps);
  if (form.grant_type === 'refresh_token') return refresh(form, deps);
  throw new OAuthError(
    400,
    'unsupported_grant_type',
    'grant_type must be authorization_code or refresh_token',
  );
}

async function redeemCode(
  form: Record<string, string | undefined>,
  deps: OAuthServerDeps,
): Promise<TokenResponse> {
  const { code, code_verifier: verifier, client_id: clientId } = form;
  if (!code || !verifier || !clientId) throw invalidRequest('code, code_verifier and client_id are required');
  const stored = await deps.kv.get(codeKey(code));
  // Whoever removes the code redeems it: a code is good once.
  if (stored === null || stored === undefined || (await deps.kv.del(codeKey(code))) !== 1)
    throw invalidGrant('The authorization code is invalid, expired or already used');
  const issued = (typeof stored === 'string' ? JSON.parse(stored) : stored) as IssuedCode;
  if (issued.clientId !== clientId) throw invalidGrant('The code was issued to another client');
  if (form.redirect_uri !== undefined && form.redirect_uri !== issued.redirectUri)
    throw invalidGrant('redirect_uri differs from the authorization request');
  if (!(await verifiesChallenge(verifier, issued.codeChallenge)))
    throw invalidGrant('code_verifier does not match');
  if (form.resource !== undefined && form.resource !== issued.resource)
    throw new OAuthError(400, 'invalid_target', 'resource differs from the authorization request');
  const grant = await deps.grants.find(issued.grantId);
  if (!grant || grant.revokedAt) throw invalidGrant('The grant was revoked');
  return issueTokens(grant, null, deps);
}

async function refresh(
  form: Record<string, string | undefined>,
  deps: OAuthServerDeps,
): Promise<TokenResponse> {
  const presented = form.refresh_token;
  if (!presented) throw invalidRequest('refresh_token is required');
  const grantId = presented.split('.', 1)[0] ?? '';
  const grant = /^[0-9a-f-]{36}$/.test(grantId) ? await deps.grants.find(grantId) : null;
  if (!grant || grant.revokedAt) throw invalidGrant('The refresh token is invalid or revoked');
  if (form.client_id !== undefined && form.client_id !== grant.clientId)
    throw invalidGrant('The refresh token was issued to another client');
  if (form.resource !== undefined && form.resource !== grant.resource)
    throw new OAuthError(400, 'invalid_target', 'resource differs from the grant');
  const hash = await sha256Hex(presented);
  if (hash === grant.previousRefreshHash) {
    // A replaced token came back: someone else holds one of the two. End the grant (OAuth 2.1 § 4.3.1).
    await revokeGrant(grant.id, 'refresh token reused', deps);
    throw invalidGrant('The refresh token was already used; the grant is revoked');
  }
  if (hash !== grant.refreshHash) throw invalidGrant('The refresh token is invalid or revoked');
  return issueTokens(grant, hash, deps);
}

/** A new access token and a new refresh token that replaces `previous` (rotation). */
async function issueTokens(
  grant: GrantRecord,
  previous: string | null,
  deps: OAuthServerDeps,
): Promise<TokenResponse> {
  const user = await deps.users.active(grant.userId);
  if (!user) {
    await revokeGrant(grant.id, 'user disabled or deleted', deps);
    throw invalidGrant('The user may no longer sign in');
  }
  const refreshToken = `${grant.id}.${toBase64Url(randomBytes(32))}`;
  if (!(await deps.grants.rotate(grant.id, previous, await sha256Hex(refreshToken), deps.now())))
    throw invalidGrant('The refresh token was used concurrently');
  const accessToken = await deps.tokens.sign(
    {
      userId: grant.userId,
      role: user.role,
      grantId: grant.id,
      clientId: grant.clientId,
      scope: grant.scope,
    },
    deps.issuer,
    grant.resource,
  );
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    refresh_token: refreshToken,
    scope: grant.scope,
  };
}

/**
 * Ends a grant: its refresh token stops working at once, and its access tokens as soon as the
 * gateway sees the revocation key (they would otherwise live out their hour).
 */
export async function revokeGrant(
  grantId: string,
  reason: string,
  deps: Pick<OAuthServerDeps, 'grants' | 'kv' | 'now'>,
) {
  const revoked = await deps.grants.revoke(grantId, reason, deps.now());
  await deps.kv.set(revokedGrantKey(grantId), reason, { ex: ACCESS_TOKEN_TTL_SECONDS });
  return revoked;
}

/** POST /oauth/revoke (RFC 7009): a refresh token ends its grant; anything else is ignored. */
export async function revokeToken(
  form: Record<string, string | undefined>,
  deps: OAuthServerDeps,
): Promise<void> {
  const token = form.token ?? '';
  const grantId = token.split('.', 1)[0] ?? '';
  if (!/^[0-9a-f-]{36}$/.test(grantId)) return;
  const grant = await deps.grants.find(grantId);
  if (grant && !grant.revokedAt && (await sha256Hex(token)) === grant.refreshHash)
    await revokeGrant(grant.id, 'revoked by the client', deps);
}
