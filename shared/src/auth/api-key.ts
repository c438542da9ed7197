import { randomBytes, sha256Hex, toBase64Url } from './encoding';

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

/** Cheap shape check that spares a store lookup for values that cannot be keys. */
export function looksLikeApiKey(value: string): boolean {
  return API_KEY_PATTERN.test(value);
}
