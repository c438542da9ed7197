import type { QueryDb } from '../../shared/src/db/types';
import { createWarmCaches, WARM_PARTS, type WarmCaches } from '../../shared/src/gateway/warm-caches';
import { createVersionBoard, readVersionsWith } from '../../shared/src/runtime/version-board';
import type { RedisPort } from '../../shared/src/stores/redis-port';

/**
 * A gateway isolate's caches (gateway/warm-caches.ts) over the real stores, as the gateway
 * builds them: for tests that a console change reaches what gateways keep. No key lookups.
 */
export async function warmCachesOver(db: QueryDb, redis: Pick<RedisPort, 'mget'>): Promise<WarmCaches> {
  const board = createVersionBoard({
    parts: WARM_PARTS,
    read: readVersionsWith(redis),
    timeoutMs: 2_000,
    checkMs: 0,
  });
  await board.ready();
  return createWarmCaches({
    db,
    board,
    findKey: async () => undefined,
    // A failed load rejects the call that waited for it: the test sees it there.
    onError: () => undefined,
  });
}

/** Runs what a cache hands to the background at once (a test has no waitUntil). */
export const inline = (work: Promise<unknown>): void => {
  void work;
};
