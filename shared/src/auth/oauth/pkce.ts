import { toBase64Url } from '../../util/encoding';

/** RFC 7636: what the client proves at the token endpoint. S256 only (OAuth 2.1). */
export async function s256(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return toBase64Url(new Uint8Array(digest));
}

/** 43–128 characters of [A-Za-z0-9-._~] (RFC 7636 § 4.1). */
export const PKCE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** A base64url SHA-256: 43 characters. */
export const PKCE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export async function verifiesChallenge(verifier: string, challenge: string): Promise<boolean> {
  return PKCE_VERIFIER.test(verifier) && (await s256(verifier)) === challenge;
}
