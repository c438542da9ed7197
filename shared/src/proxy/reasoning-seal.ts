import { isSealed, SEAL_PREFIX } from '../canonical/reasoning';
import type { ReasoningOpaque, ReasoningVendor } from '../canonical/types';
import { badRequest } from '../http/app-error';
import { decodeKey, type SecretBox, secretBoxFromKey } from '../secrets/secret-box';

/**
 * The envelope a vendor's reasoning travels in through a client of another format: an
 * Anthropic thinking block's signature in a Responses `reasoning` item's `encrypted_content`,
 * OpenAI's encrypted reasoning in a Messages `thinking` block's `signature`. AES-256-GCM under
 * a key derived (HKDF) from SLUICE_ENCRYPTION_KEY, so every gateway of a deployment opens what
 * another sealed, a client can read nothing of it (vendors' signatures stay theirs) and cannot
 * forge or alter one: an altered seal fails to open and the request is a 400.
 */
export interface ReasoningSeal {
  /** Functions of their own (no `this`): they may be passed on as they are. */
  seal: (opaque: ReasoningOpaque) => Promise<string>;
  /** Null when the value is not one of the gateway's seals (a vendor's own value, passed on). */
  open: (value: string, field: string) => Promise<ReasoningOpaque | null>;
}

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

/**
 * `keyMaterial` is SLUICE_ENCRYPTION_KEY; the derived key is made once, on first use. The
 * envelope is secrets/secret-box.ts's under the seal's prefix: `sluice-r1.<iv>.<ciphertext+tag>`.
 */
export function createReasoningSeal(keyMaterial: string): ReasoningSeal {
  let box: Promise<SecretBox> | undefined;
  const boxOf = () => {
    box ??= sealKey(keyMaterial).then((key) => secretBoxFromKey(key, SEAL_PREFIX));
    return box;
  };
  return {
    async seal(opaque) {
      return (await boxOf()).encrypt(JSON.stringify({ v: opaque.vendor, d: opaque.data }));
    },
    async open(value, field) {
      if (!isSealed(value)) return null;
      try {
        const opaque = readOpaque(await (await boxOf()).decrypt(value));
        if (opaque) return opaque;
      } catch {
        // No iv or body, a wrong tag, bad base64 or bad JSON: all the same to the client.
      }
      throw badRequest(`Invalid '${field}': this reasoning was not issued by this gateway or was altered`);
    },
  };
}
