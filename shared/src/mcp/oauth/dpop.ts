import { exportJWK, generateKeyPair, importJWK, SignJWT } from 'jose';
import * as z from 'zod';
import { toBase64Url } from '../../util/encoding';

/**
 * DPoP (RFC 9449): a connection whose authorization server binds tokens to a key holds a key
 * pair of its own, and every token request and every call with the token carries a proof (a JWT
 * signed with that key) of the request it goes with.
 */

/** What Sluice signs proofs with, best first; all of them in Web Crypto on workerd and Node. */
export const DPOP_ALGORITHMS = ['ES256', 'ES384', 'PS256', 'RS256'] as const;
export type DpopAlgorithm = (typeof DPOP_ALGORITHMS)[number];

const jwk = z.record(z.string(), z.unknown());
export const dpopKeySchema = z.object({
  alg: z.enum(DPOP_ALGORITHMS),
  privateJwk: jwk,
  publicJwk: jwk,
});
/** A connection's key pair, as JWKs (kept sealed with the user's tokens). */
export type DpopKey = z.infer<typeof dpopKeySchema>;

/** The algorithm to use with a server listing these (`dpop_signing_alg_values_supported`); null: no DPoP. */
export function dpopAlgorithmFor(supported: readonly string[] | undefined): DpopAlgorithm | null {
  return DPOP_ALGORITHMS.find((alg) => supported?.includes(alg)) ?? null;
}

export async function newDpopKey(alg: DpopAlgorithm): Promise<DpopKey> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const [privateJwk, publicJwk] = await Promise.all([exportJWK(privateKey), exportJWK(publicKey)]);
  return { alg, privateJwk: { ...privateJwk }, publicJwk: publicOnly(publicJwk) };
}

/** The public members of a JWK only: the proof's header must never carry the private part. */
function publicOnly(key: Record<string, unknown>): Record<string, unknown> {
  const { kty, crv, x, y, n, e } = key;
  return Object.fromEntries(Object.entries({ kty, crv, x, y, n, e }).filter(([, v]) => v !== undefined));
}

/** The request a proof is for. */
export interface ProofTarget {
  method: string;
  url: string;
  /** The access token the request carries (a resource request): its hash goes in `ath`. */
  accessToken?: string;
  /** The server's latest DPoP-Nonce, when it gave one. */
  nonce?: string | null;
}

/** `htu`: the request's URL without its query and fragment (RFC 9449 § 4.2). */
export function htuOf(url: string): string {
  const parsed = new URL(url);
  parsed.search = '';
  parsed.hash = '';
  return parsed.toString();
}

/** `ath`: base64url of the SHA-256 of the access token's ASCII bytes. */
export async function accessTokenHash(token: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  return toBase64Url(new Uint8Array(digest));
}

/** A fresh proof (its own `jti`) for one request. */
export async function dpopProof(key: DpopKey, target: ProofTarget, now: Date = new Date()): Promise<string> {
  const claims: Record<string, string> = {
    htm: target.method.toUpperCase(),
    htu: htuOf(target.url),
  };
  if (target.accessToken !== undefined) claims.ath = await accessTokenHash(target.accessToken);
  if (target.nonce) claims.nonce = target.nonce;
  const signingKey = await importJWK(key.privateJwk, key.alg);
  return new SignJWT(claims)
    .setProtectedHeader({ typ: 'dpop+jwt', alg: key.alg, jwk: publicOnly(key.publicJwk) })
    .setJti(crypto.randomUUID())
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .sign(signingKey);
}
