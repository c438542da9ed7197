import { and, eq } from 'drizzle-orm';
import { auditLog } from '../../shared/src/db/schema';
import { CACHE_VERSION_KEYS, type CachePart } from '../../shared/src/runtime/cache-versions';
import type { ConsoleHarness } from './console';

/** What a console change leaves behind: audit records, and the cache version it moved. */

/** The audit records of `action` on one resource. */
export function auditOf(h: ConsoleHarness, action: string, resourceId: string) {
  return h.deps.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.resourceId, resourceId)));
}

/**
 * A part's cache version. Redis is shared by test files running in parallel: compare a bump as
 * "at least one more", never as an exact value.
 */
export async function cacheVersion(h: ConsoleHarness, part: CachePart): Promise<number> {
  return Number((await h.deps.redis.get(CACHE_VERSION_KEYS[part])) ?? 0);
}
