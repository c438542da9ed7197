import type { WireFormatName } from '../canonical/ports';
import type { Usage } from '../canonical/types';
import type { WriteBehind } from '../runtime/write-behind';
import type { LuaScript } from '../stores/lua-script';
import type { Background } from '../util/background';
import { sha256Hex } from '../util/encoding';

/** A complete answer as the client received it, replayable byte for byte. */
export interface CachedAnswer {
  contentType: string;
  body: string;
  usage: Usage | null;
  provider: string;
}

/**
 * Exact-match response cache in Redis. The entry is read by the admission script (in the round
 * trip the request makes anyway, limits/admission-script.ts) and written after the response in
 * the isolate's write-behind flush, so the cache adds no round trip of its own.
 */
export interface ResponseCache {
  /** The entry key for a request: one per scope (who may see it), format and exact request. */
  keyFor(scope: string, shape: CacheShape, body: unknown): Promise<string>;
  /** Reads an entry as stored; null when it is not a cached answer. */
  parse(stored: string): CachedAnswer | null;
  /**
   * Stores the answer in the next flush; resolves (never rejects) once that is answered.
   * `keepAlive` gets the flush when this call opens it (runtime/write-behind.ts).
   */
  set(key: string, answer: CachedAnswer, ttlSeconds: number, keepAlive?: Background): Promise<void>;
}

/** What kind of body a cached answer answers: a chat format's, or an embeddings request's. */
export type CacheShape = WireFormatName | 'openai-embeddings';

export const RESPONSE_CACHE_PREFIX = 'sluice:respcache:';
/** Larger answers are not cached: one Redis value should stay small. */
export const MAX_CACHED_BODY_CHARS = 1_000_000;

/** SET with a TTL, as a script so that it can ride in the write-behind pipeline. */
export const CACHE_SET_SCRIPT: LuaScript = {
  name: 'response-cache-set',
  source: "return redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])",
  sha1: 'ae3ba16a3b6f97647d4b975ac80ae14066d2a324',
};

/**
 * Two requests share an entry only when their JSON bodies are equal after sorting object keys,
 * so `stream: true` and `false`, or any other parameter, never mix.
 */
export function createResponseCache(
  writeBehind: WriteBehind,
  onError: (error: string) => void,
): ResponseCache {
  let pending: Array<{ key: string; value: string; ttlSeconds: number }> = [];
  writeBehind.register({
    drain() {
      const writes = pending;
      pending = [];
      return writes.map((w) => ({
        call: { script: CACHE_SET_SCRIPT, keys: [w.key], args: [w.value, w.ttlSeconds] },
        done: (outcome) => (outcome.ok ? undefined : onError(outcome.error)),
      }));
    },
  });
  return {
    async keyFor(scope, shape, body) {
      const digest = await sha256Hex(`${scope}\n${shape}\n${stableJson(body)}`);
      return `${RESPONSE_CACHE_PREFIX}${digest}`;
    },
    parse(stored) {
      try {
        const value: unknown = JSON.parse(stored);
        return isCachedAnswer(value) ? value : null;
      } catch {
        return null;
      }
    },
    set(key, answer, ttlSeconds, keepAlive) {
      if (ttlSeconds <= 0 || answer.body.length > MAX_CACHED_BODY_CHARS) return Promise.resolve();
      pending.push({ key, value: JSON.stringify(answer), ttlSeconds: Math.ceil(ttlSeconds) });
      return writeBehind.schedule(keepAlive);
    },
  };
}

function isCachedAnswer(value: unknown): value is CachedAnswer {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as CachedAnswer).body === 'string' &&
    typeof (value as CachedAnswer).contentType === 'string'
  );
}

/** JSON with object keys sorted at every level, so key order never splits the cache. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
