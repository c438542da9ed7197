import { randomBytes, sha256Hex, toBase64Url } from '../../util/encoding';

export const API_KEY_PREFIX = 'sluice-';
const SECRET_BYTES = 32; // 256 bits → 43 base64url characters
const DISPLAY_PREFIX_LENGTH = 12;
const API_KEY_PATTERN = /^sluice-[A-Za-z0-9_-]{43}$/;

export interface GeneratedApiKey {
  key: string;
  hash: string;
  prefix: string;
}

export async function generateApiKey(): Promise<GeneratedApiKey> {
  const key = API_KEY_PREFIX + toBase64Url(randomBytes(SECRET_BYTES));
  return { key, hash: await hashApiKey(key), prefix: key.slice(0, DISPLAY_PREFIX_LENGTH) };
}

/** Keys are looked up by hash only; the plaintext is never compared or stored. */
export function hashApiKey(key: string): Promise<string> {
  return sha256Hex(key);
}

/**
 * Hashes of the keys an isolate saw lately, so a warm isolate does not digest the same key on
 * every request (about 3 % of a model request's CPU on workerd). In memory only, as the request
 * that carried the key was; bounded, and emptied when full rather than ordered by use, because
 * a client that cycles through more keys than this pays only the digest it would pay anyway.
 */
const recentHashes = new Map<string, string>();
const RECENT_HASHES_MAX = 4096;

/** hashApiKey for a key presented by a client, remembered for the next request that presents it. */
export async function hashPresentedKey(key: string): Promise<string> {
  const known = recentHashes.get(key);
  if (known !== undefined) return known;
  const hash = await hashApiKey(key);
  if (recentHashes.size >= RECENT_HASHES_MAX) recentHashes.clear();
  recentHashes.set(key, hash);
  return hash;
}

/** Cheap shape check that spares a store lookup for values that cannot be keys. */
export function looksLikeApiKey(value: string): boolean {
  return API_KEY_PATTERN.test(value);
}
