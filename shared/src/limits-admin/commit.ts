import { lockExistingIds } from '../db/repos/limits-admin-repo';
import type { Db } from '../db/types';
import { unprocessable } from '../http/app-error';
import { bumpLimitsVersion } from '../limits/version';
import { errorText, type Logger } from '../server-logs/logger';
import type { RedisPort } from '../stores/redis-port';

/** `db` must support transactions; `redis` carries the limits version counter gateways watch. */
export interface LimitsAdminDeps {
  db: Db;
  redis: Pick<RedisPort, 'incr'>;
  logger: Pick<Logger, 'warn'>;
}

/**
 * Runs a change (and its audit record) in one transaction, then tells every gateway isolate to
 * reload limit definitions. The change is committed by then: if Redis is down the gateways
 * catch up when their cache TTL runs out, so the failure is logged, not returned.
 */
export async function commitLimitsChange<T>(
  deps: LimitsAdminDeps,
  change: (tx: Db) => Promise<T>,
): Promise<T> {
  const result = await deps.db.transaction(change);
  await bumpLimitsVersion(deps.redis).catch((error: unknown) => {
    deps.logger.warn('limits version bump failed; gateways catch up on their cache TTL', {
      error: errorText(error),
    });
  });
  return result;
}

/**
 * Every id in a body must name an existing row. Reported as a 422 with one detail per bad
 * entry (`user_ids.2`), in the same {path, message} shape as schema failures.
 */
export async function requireExistingIds(
  tx: Db,
  table: 'users' | 'roles' | 'teams',
  ids: string[],
  path: string,
): Promise<void> {
  const existing = await lockExistingIds(tx, table, ids);
  const noun = table.slice(0, -1);
  const details = ids.flatMap((id, i) =>
    existing.has(id) ? [] : [{ path: `${path}.${i}`, message: `${noun} not found` }],
  );
  if (details.length > 0) {
    const summary = details.map((d) => `${d.path} ${d.message}`).join('; ');
    throw unprocessable(`Invalid request: ${summary}`, details);
  }
}
