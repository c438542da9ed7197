import type { RedisPort } from '../stores/redis-port';
import type { ResolvedModel } from './resolve';

/**
 * The gateway resolves a model on every request; Postgres must not be on that path. Each
 * isolate keeps resolutions for ttlMs and drops them all as soon as the Redis counter
 * ROUTING_VERSION_KEY moves, which the console INCRs after every provider or model change.
 * The counter is read at most once per versionCheckMs; Redis being down only falls back
 * to the TTL.
 */
export const ROUTING_VERSION_KEY = 'sluice:routing:version';

export interface RouteCacheOptions {
  resolve: (name: string) => Promise<ResolvedModel | null>;
  redis: Pick<RedisPort, 'get'> | null;
  ttlMs?: number;
  versionCheckMs?: number;
  maxEntries?: number;
  now?: () => number;
}

interface Entry {
  value: Promise<ResolvedModel | null>;
  loadedAt: number;
}

export function createCachedResolver(
  options: RouteCacheOptions,
): (name: string) => Promise<ResolvedModel | null> {
  const ttlMs = options.ttlMs ?? 5_000;
  const checkMs = options.versionCheckMs ?? 1_000;
  const maxEntries = options.maxEntries ?? 1_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  let version: string | null = null;
  let checkedAt = Number.NEGATIVE_INFINITY;

  const checkVersion = async (at: number): Promise<void> => {
    if (!options.redis || at - checkedAt < checkMs) return;
    checkedAt = at;
    try {
      const current = String((await options.redis.get(ROUTING_VERSION_KEY)) ?? '');
      if (current !== version) entries.clear();
      version = current;
    } catch {
      // Redis down: the TTL still bounds staleness.
    }
  };

  return async (name) => {
    const at = now();
    await checkVersion(at);
    const cached = entries.get(name);
    if (cached && at - cached.loadedAt < ttlMs) return cached.value;
    if (entries.size >= maxEntries) entries.clear();
    const value = options.resolve(name);
    entries.set(name, { value, loadedAt: at });
    // A failed load must not be served from the cache.
    value.catch(() => entries.delete(name));
    return value;
  };
}

/** Called by the console after every committed provider or model change. */
export async function bumpRoutingVersion(redis: Pick<RedisPort, 'incr'>): Promise<number> {
  return redis.incr(ROUTING_VERSION_KEY);
}
