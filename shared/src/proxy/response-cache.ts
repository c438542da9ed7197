import { sha256Hex } from '../auth/encoding';
import type { WireFormatName } from '../canonical/ports';
import type { Usage } from '../canonical/types';
import type { RedisPort } from '../stores/redis-port';

/** A complete answer as the client received it, replayable byte for byte. */
export interface CachedAnswer {
  contentType: string;
  body: string;
  usage: Usage | null;
  provider: string;
}

export interface ResponseCache {
  /** The entry key for a request: one per scope (who may see it), format and exact request. */
  keyFor(scope: string, format: WireFormatName, body: unknown): Promise<string>;
  get(key: string): Promise<CachedAnswer | null>;
  set(key: string, answer: CachedAnswer, ttlSeconds: number): Promise<void>;
}

export const RESPONSE_CACHE_PREFIX = 'sluice:respcache:';
/** Larger answers are not cached: one Redis value should stay small. */
export const MAX_CACHED_BODY_CHARS = 1_000_000;

/**
 * Exact-match response cache in Redis. Two requests share an entry only when their JSON
 * bodies are equal after sorting object keys, so `stream: true` and `false`, or any other
 * parameter, never mix.
 */
export function createResponseCache(redis: Pick<RedisPort, 'get' | 'set'>): ResponseCache {
  return {
    async keyFor(scope, format, body) {
      const digest = await sha256Hex(`${scope}\n${format}\n${stableJson(body)}`);
      return `${RESPONSE_CACHE_PREFIX}${digest}`;
    },
    async get(key) {
      const value = await redis.get<CachedAnswer>(key);
      return isCachedAnswer(value) ? value : null;
    },
    async set(key, answer, ttlSeconds) {
      if (ttlSeconds <= 0 || answer.body.length > MAX_CACHED_BODY_CHARS) return;
      await redis.set(key, answer, { ex: ttlSeconds });
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
