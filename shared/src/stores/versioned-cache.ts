import type { RedisPort } from './redis-port';

/**
 * A per-isolate cache of values loaded from Postgres, for hot paths that must not query it on
 * every request. Entries live ttlMs; all of them are dropped as soon as the Redis counter
 * `versionKey` moves, which writers INCR after each committed change. The counter is read at
 * most once per versionCheckMs; Redis being down only falls back to the TTL. A failed load is
 * not kept.
 */
export interface VersionedCacheOptions<V> {
  load: (key: string) => Promise<V>;
  redis: Pick<RedisPort, 'get'> | null;
  versionKey: string;
  ttlMs?: number;
  versionCheckMs?: number;
  maxEntries?: number;
  now?: () => number;
}

interface Entry<V> {
  value: Promise<V>;
  loadedAt: number;
}

export function createVersionedCache<V>(options: VersionedCacheOptions<V>): (key: string) => Promise<V> {
  const ttlMs = options.ttlMs ?? 5_000;
  const checkMs = options.versionCheckMs ?? 1_000;
  const maxEntries = options.maxEntries ?? 1_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry<V>>();
  let version: string | null = null;
  let checkedAt = Number.NEGATIVE_INFINITY;

  const checkVersion = async (at: number): Promise<void> => {
    if (!options.redis || at - checkedAt < checkMs) return;
    checkedAt = at;
    try {
      const current = String((await options.redis.get(options.versionKey)) ?? '');
      if (current !== version) entries.clear();
      version = current;
    } catch {
      // Redis down: the TTL still bounds staleness.
    }
  };

  return async (key) => {
    const at = now();
    await checkVersion(at);
    const cached = entries.get(key);
    if (cached && at - cached.loadedAt < ttlMs) return cached.value;
    if (entries.size >= maxEntries) entries.clear();
    const value = options.load(key);
    entries.set(key, { value, loadedAt: at });
    value.catch(() => entries.delete(key));
    return value;
  };
}

/** Called by writers after every committed change the cached values depend on. */
export async function bumpVersion(redis: Pick<RedisPort, 'incr'>, versionKey: string): Promise<number> {
  return redis.incr(versionKey);
}
