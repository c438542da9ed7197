/**
 * What one fake server remembers between requests, as a vendor does for an account: the key
 * it signs its reasoning with (so it can tell its own thinking blocks and encrypted reasoning
 * when a client sends them back), the prompt prefixes it has cached, and which reasoning went
 * with which tool call. Each `startFakeUpstreams()` gets its own, so tests start cold.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export interface CachedPrefix {
  /** When the entry lapses (ms since the epoch); a read pushes it back by its lifetime. */
  expiresAt: number;
  ttlMs: number;
}

export interface FakeMemory {
  /** The HMAC key behind every signature and encrypted reasoning blob this server hands out. */
  signingKey: Buffer;
  /** Prompt prefixes cached so far, by vendor, model and prefix digest. */
  promptCache: Map<string, CachedPrefix>;
  /** OpenAI Responses: a function_call item id → the reasoning item id answered with it. */
  reasoningForCall: Map<string, string>;
}

export function createFakeMemory(): FakeMemory {
  return { signingKey: randomBytes(32), promptCache: new Map(), reasoningForCall: new Map() };
}

function mac(memory: FakeMemory, purpose: string, nonce: Buffer, payload: string): Buffer {
  return createHmac('sha256', memory.signingKey).update(purpose).update(nonce).update(payload).digest();
}

/**
 * An opaque signature over `payload` (base64): a random nonce and the HMAC of nonce and
 * payload under the server's key. Only this server can make one that `verify` accepts.
 */
export function sign(memory: FakeMemory, purpose: string, payload: string): string {
  const nonce = randomBytes(16);
  return Buffer.concat([nonce, mac(memory, purpose, nonce, payload)]).toString('base64');
}

export function verify(memory: FakeMemory, purpose: string, payload: string, signature: unknown): boolean {
  if (typeof signature !== 'string') return false;
  const bytes = Buffer.from(signature, 'base64');
  if (bytes.length !== 48 || bytes.toString('base64') !== signature) return false;
  const expected = mac(memory, purpose, bytes.subarray(0, 16), payload);
  return timingSafeEqual(expected, bytes.subarray(16));
}

/**
 * A sealed blob carrying `payload` (readable only by this server): what OpenAI's
 * `encrypted_content` is. Starts `gAAAAA` as OpenAI's (Fernet) tokens do.
 */
export function seal(memory: FakeMemory, purpose: string, payload: string): string {
  const body = Buffer.from(payload).toString('base64url');
  return `gAAAAA${body}.${sign(memory, purpose, body)}`;
}

/** The payload of a blob `seal` made, or undefined when it is not one, or was altered. */
export function unseal(memory: FakeMemory, purpose: string, blob: unknown): string | undefined {
  if (typeof blob !== 'string' || !blob.startsWith('gAAAAA')) return undefined;
  const dot = blob.indexOf('.');
  if (dot < 0) return undefined;
  const body = blob.slice(6, dot);
  if (!verify(memory, purpose, body, blob.slice(dot + 1))) return undefined;
  return Buffer.from(body, 'base64url').toString();
}
