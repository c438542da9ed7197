import { lockExistingIds } from '../db/repos/limits-admin-repo';
import type { Db } from '../db/types';
import { unprocessable } from '../http/app-error';
import type { ChangeDeps } from '../runtime/cache-versions';

/** `db` must support transactions; every change moves the limits counter gateways watch. */
export type LimitsAdminDeps = ChangeDeps;

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
