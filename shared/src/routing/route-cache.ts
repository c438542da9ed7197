import type { RedisPort } from '../stores/redis-port';
import { bumpVersion, createVersionedCache } from '../stores/versioned-cache';
import type { ResolvedModel } from './resolve';

/**
 * The gateway resolves a model on every request; Postgres must not be on that path. Each
 * isolate keeps resolutions for ttlMs and drops them all as soon as the Redis counter
 * ROUTING_VERSION_KEY moves, which the console INCRs after every provider or model change.
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

export function createCachedResolver(
  options: RouteCacheOptions,
): (name: string) => Promise<ResolvedModel | null> {
  const { resolve, ...rest } = options;
  return createVersionedCache({ ...rest, load: resolve, versionKey: ROUTING_VERSION_KEY });
}

/** Called by the console after every committed provider or model change. */
export function bumpRoutingVersion(redis: Pick<RedisPort, 'incr'>): Promise<number> {
  return bumpVersion(redis, ROUTING_VERSION_KEY);
}
