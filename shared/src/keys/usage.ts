import { touchLastUsed } from '../db/repos/api-keys-repo';
import type { QueryDb } from '../db/types';
import type { RedisPort } from '../stores/redis-port';

/** At most one last_used_at write per key per this many seconds, whatever the traffic. */
export const LAST_USED_COALESCE_SECONDS = 60;

const usedGuardKey = (keyId: string) => `sluice:apikey-used:${keyId}`;

/**
 * Records a use of the key. A Redis SET NX guard lets one request per key per minute through
 * to Postgres; the inactivity timeout is measured in days, so minute precision is plenty.
 */
export async function recordKeyUse(
  deps: { db: QueryDb; redis: Pick<RedisPort, 'set'> },
  keyId: string,
  now: Date,
): Promise<boolean> {
  const first = await deps.redis.set(usedGuardKey(keyId), '1', { nx: true, ex: LAST_USED_COALESCE_SECONDS });
  if (first !== 'OK') return false;
  await touchLastUsed(deps.db, keyId, now);
  return true;
}

/**
 * recordKeyUse behind a per-isolate memory of recent writes: a busy isolate asks Redis once
 * per key per minute instead of on every request. Other isolates still meet the Redis guard.
 * A use it already recorded answers null at once: no promise, no background task per request.
 */
export function createKeyUseRecorder(
  deps: { db: QueryDb; redis: Pick<RedisPort, 'set'> },
  options: { maxKeys?: number } = {},
): (keyId: string, now: Date) => Promise<boolean> | null {
  const maxKeys = options.maxKeys ?? 10_000;
  const recent = new Map<string, number>();
  return (keyId, now) => {
    const at = now.getTime();
    const last = recent.get(keyId);
    if (last !== undefined && at - last < LAST_USED_COALESCE_SECONDS * 1000) return null;
    if (recent.size >= maxKeys) recent.clear();
    recent.set(keyId, at);
    return recordKeyUse(deps, keyId, now);
  };
}
