import type { QueryDb } from '../db/types';
import { ROUTING_VERSION_KEY } from '../routing/route-cache';
import type { RedisPort } from '../stores/redis-port';
import { createVersionedCache } from '../stores/versioned-cache';
import { listPriceRows, toPriceEntry } from './repo';
import { type PriceTable, toPriceTable } from './types';

/**
 * The whole price table per isolate. It is read only when a model is resolved (and resolutions
 * are cached themselves), so requests never wait on it; a price edit in the console bumps
 * ROUTING_VERSION_KEY, which drops this copy and the cached resolutions together, and ttlMs
 * bounds staleness while Redis is down.
 */
export function createPriceTableCache(options: {
  db: QueryDb;
  redis: Pick<RedisPort, 'get'> | null;
  ttlMs?: number;
}): () => Promise<PriceTable> {
  const cached = createVersionedCache<PriceTable>({
    redis: options.redis,
    versionKey: ROUTING_VERSION_KEY,
    ttlMs: options.ttlMs ?? 30_000,
    maxEntries: 1,
    load: async () => toPriceTable((await listPriceRows(options.db)).map(toPriceEntry)),
  });
  return () => cached('all');
}
