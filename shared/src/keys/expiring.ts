import { type Page, type PageQuery, pageOf } from '../db/paging';
import { listExpiringOwnedKeys } from '../db/repos/api-keys-repo';
import type { QueryDb } from '../db/types';
import { type ExpiringKeyView, toExpiringKeyView } from './views';

const DAY_MS = 86_400_000;

/**
 * A page of the caller's active keys that expire within `days` days, soonest first. Only own
 * keys, as everywhere under /api/keys, so owner_email is always the caller's.
 */
export async function listExpiringKeys(
  db: QueryDb,
  userId: string,
  query: PageQuery & { days: number },
  now = new Date(),
): Promise<Page<ExpiringKeyView>> {
  const until = new Date(now.getTime() + query.days * DAY_MS);
  const { rows, total } = await listExpiringOwnedKeys(db, userId, { now, until }, query);
  return pageOf(
    query,
    total,
    rows.map((row) => toExpiringKeyView(row, now)),
  );
}
