import { fromBase64Url, randomBytes, toBase64Url } from '../auth/encoding';
import { decodeKey } from '../auth/secret-box';
import { isSealed, SEAL_PREFIX } from '../canonical/reasoning';
import type { ReasoningOpaque, ReasoningVendor } from '../canonical/types';
import { badRequest } from '../http/app-error';

/**
 * The envelope a vendor's reasoning travels in through a client of another format: an
 * Anthropic thinking block's signature in a Responses `reasoning` item's `encrypted_content`,
 * OpenAI's encrypted reasoning in a Messages `thinking` block's `signature`. AES-256-GCM under
 * a key derived (HKDF) from SLUICE_ENCRYPTION_KEY, so every gateway of a deployment opens what
 * another sealed, a client can read nothing of it (vendors' signatures stay theirs) and cannot
 * forge or alter one: an altered seal fails to open and the request is a 400.
 */
export interface ReasoningSeal {
  seal(opaque: ReasoningOpaque): Promise<string>;
  /** Null when the value is not one of the gateway's seals (a vendor's own value, passed on). */
  open(value: string, field: string): Promise<ReasoningOpaque | null>;
}

const IV_BYTES = 12;
const VENDORS: ReadonlySet<string> = new Set<ReasoningVendor>(['anthropic', 'openai', 'bedrock']);

async function sealKey(keyMaterial: string): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey('raw', decodeKey(keyMaterial), 'HKDF', false, ['deriveKey']);
  const params = {
    name: 'HKDF',
    hash: 'SHA-256',
    salt: new Uint8Array(0),
    info: new TextEncoder().encode('sluice reasoning seal v1'),
  };
  return crypto.subtle.deriveKey(params, base, { name: 'AES-GCM', length: 256 }, false, [
    'encrypt',
    'decrypt',
  ]);
}

function readOpaque(text: string): ReasoningOpaque | null {
  const value = JSON.parse(text) as { v?: unknown; d?: unknown };
  const data = value.d;
  if (typeof value.v !== 'string' || !VENDORS.has(value.v)) return null;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  return { vendor: value.v as ReasoningVendor, data: data as Record<string, unknown> };
}

/** `keyMaterial` is SLUICE_ENCRYPTION_KEY; the derived key is made once, on first use. */
export function createReasoningSeal(keyMaterial: string): ReasoningSeal {
  let key: Promise<CryptoKey> | undefined;
  const keyOf = () => {
    key ??= sealKey(keyMaterial);
    return key;
  };
  return {
    async seal(opaque) {
      const iv = randomBytes(IV_BYTES);
      const plain = new TextEncoder().encode(JSON.stringify({ v: opaque.vendor, d: opaque.data }));
      const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await keyOf(), plain);
      return `${SEAL_PREFIX}${toBase64Url(iv)}.${toBase64Url(new Uint8Array(sealed))}`;
    },
    async open(value, field) {
      if (!isSealed(value)) return null;
      const refused = () =>
        badRequest(`Invalid '${field}': this reasoning was not issued by this gateway or was altered`);
      const [iv, body] = value.slice(SEAL_PREFIX.length).split('.');
      if (!iv || !body) throw refused();
      try {
        const plain = await crypto.subtle.decrypt(
          { name: 'AES-GCM', iv: fromBase64Url(iv) },
          await keyOf(),
          fromBase64Url(body),
        );
        const opaque = readOpaque(new TextDecoder().decode(plain));
        if (opaque) return opaque;
      } catch {
        // A wrong tag, bad base64 or bad JSON: all the same to the client.
      }
      throw refused();
    },
  };
}
