import { fromBase64Url, randomBytes, toBase64Url } from '../util/encoding';

/**
 * AES-256-GCM for provider and MCP credentials at rest. Ciphertext is versioned
 * ("v1.<iv>.<ciphertext+tag>") so the key or algorithm can change without guessing.
 */
const VERSION_PREFIX = 'v1.';
const IV_BYTES = 12;

export interface SecretBox {
  encrypt(plaintext: string): Promise<string>;
  decrypt(sealed: string): Promise<string>;
}

/** `keyMaterial` is 32 bytes as base64/base64url or 64 hex characters. */
export async function createSecretBox(keyMaterial: string): Promise<SecretBox> {
  const raw = decodeKey(keyMaterial);
  const key = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
  return secretBoxFromKey(key, VERSION_PREFIX);
}

/**
 * The same envelope under an AES-GCM key of the caller's, as `<prefix><iv>.<ciphertext+tag>`
 * (base64url): the credentials' box is `v1.`, the reasoning seal `sluice-r1.`
 * (proxy/reasoning-seal.ts). A value without the prefix, or without both parts after it, is
 * refused as 'unsupported ciphertext format'; a wrong key or an altered value fails to decrypt.
 */
export function secretBoxFromKey(key: CryptoKey, prefix: string): SecretBox {
  return {
    async encrypt(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const data = new TextEncoder().encode(plaintext);
      const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, data);
      return `${prefix}${toBase64Url(iv)}.${toBase64Url(new Uint8Array(sealed))}`;
    },
    async decrypt(sealed) {
      if (!sealed.startsWith(prefix)) throw new Error('unsupported ciphertext format');
      const [iv, body] = sealed.slice(prefix.length).split('.');
      if (!iv || !body) throw new Error('unsupported ciphertext format');
      const plain = await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: fromBase64Url(iv) },
        key,
        fromBase64Url(body),
      );
      return new TextDecoder().decode(plain);
    },
  };
}

/** The 32 key bytes from their configured text form (base64, base64url or hex). */
export function decodeKey(material: string): Uint8Array<ArrayBuffer> {
  const trimmed = material.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(trimmed)
    ? Uint8Array.from(trimmed.match(/../g) ?? [], (h) => Number.parseInt(h, 16))
    : fromBase64Url(trimmed.replace(/=+$/, ''));
  if (bytes.length !== 32) throw new Error('SLUICE_ENCRYPTION_KEY must be 32 bytes (base64 or 64 hex chars)');
  return bytes;
}
