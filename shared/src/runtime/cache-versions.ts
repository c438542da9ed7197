import type { Db } from '../db/types';
import { errorText, type Logger } from '../logs/server/logger';
import type { RedisPort } from '../stores/redis-port';

/**
 * What gateway isolates keep from Postgres, each part behind a Redis counter they watch
 * (runtime/version-board.ts, gateway/warm-caches.ts). This is the one way a write reaches them:
 * commit, then move the counters of the parts it touched; every isolate drops those parts and
 * reloads them behind its next request.
 */
export const CACHE_VERSION_KEYS = {
  /** Key records with their owner's role and active flag (auth/api-keys/auth-cache.ts). */
  keys: 'sluice:keys:version',
  /** Model resolutions, routes, providers and prices. */
  routing: 'sluice:routing:version',
  /** Limit definitions: roles, teams, memberships, rules, budgets, per-key limits. */
  limits: 'sluice:limits:version',
  settings: 'sluice:settings:version',
  /** The MCP servers and their tools. */
  mcp: 'sluice:mcp:version',
} as const;

export type CachePart = keyof typeof CACHE_VERSION_KEYS;

export interface CacheVersionDeps {
  redis: Pick<RedisPort, 'incr'>;
  logger: Pick<Logger, 'warn'>;
}

/** A writer of what gateways cache: a transactional db beside the counters. */
export interface ChangeDeps extends CacheVersionDeps {
  db: Db;
}

/**
 * Moves the counters of `parts`, after a change has committed. The change is in by then: when
 * Redis is down the isolates catch up on their background refresh, so a failure is logged,
 * not returned.
 */
export async function bumpCacheVersions(deps: CacheVersionDeps, parts: readonly CachePart[]): Promise<void> {
  // Tried twice: a first failure is often a connection that died while idle (a broken network
  // path is only noticed when a command waits on it), replaced by the second attempt; a counter
  // moved twice is as good as once.
  const bump = (key: string) => deps.redis.incr(key).catch(() => deps.redis.incr(key));
  await Promise.all(
    [...new Set(parts)].map((part) =>
      bump(CACHE_VERSION_KEYS[part]).catch((error: unknown) => {
        deps.logger.warn(`${part} cache version bump failed; gateways catch up on their refresh`, {
          error: errorText(error),
        });
      }),
    ),
  );
}

/**
 * Runs a change (with its audit record) in one transaction, then moves the counters of the
 * parts it touched: `parts` may depend on what the change found (a user's role changed or not).
 */
export async function commitThenBump<T>(
  deps: ChangeDeps,
  parts: readonly CachePart[] | ((result: T) => readonly CachePart[]),
  change: (tx: Db) => Promise<T>,
): Promise<T> {
  const result = await deps.db.transaction(change);
  await bumpCacheVersions(deps, typeof parts === 'function' ? parts(result) : parts);
  return result;
}
