import { listExpiringOwnedKeys } from '../db/repos/api-keys-repo';
import type { QueryDb } from '../db/types';
import { DEFAULT_EXPIRING_DAYS } from './schemas';
import { type ExpiringKeyView, toExpiringKeyView } from './views';

const DAY_MS = 86_400_000;

/**
 * The caller's active keys that expire within `days` days, soonest first. Only own keys, as
 * everywhere under /api/keys, so owner_email is always the caller's.
 */
export async function listExpiringKeys(
  db: QueryDb,
  userId: string,
  days = DEFAULT_EXPIRING_DAYS,
  now = new Date(),
): Promise<ExpiringKeyView[]> {
  const until = new Date(now.getTime() + days * DAY_MS);
  const rows = await listExpiringOwnedKeys(db, userId, now, until);
  return rows.map((row) => toExpiringKeyView(row, now));
}
