import type { ApiKeyAuthRecord } from '../../db/repos/api-keys-repo';

const DAY_MS = 86_400_000;

export type KeyRefusal = 'revoked' | 'disabled' | 'expired' | 'grace_ended' | 'inactive' | 'owner_inactive';

/**
 * Whether a stored key may authenticate now. `matchedPrevious` is true when the caller
 * presented the value replaced by the last rotation.
 */
export function refuseKey(record: ApiKeyAuthRecord, hash: string, now: Date): KeyRefusal | null {
  if (!record.userActive) return 'owner_inactive';
  if (record.status === 'revoked') return 'revoked';
  if (record.status === 'disabled') return 'disabled';
  if (record.status === 'expired') return 'expired';
  if (record.expiresAt && record.expiresAt.getTime() <= now.getTime()) return 'expired';
  const matchedPrevious = record.keyHash !== hash && record.previousKeyHash === hash;
  if (matchedPrevious && (!record.gracePeriodEndsAt || record.gracePeriodEndsAt.getTime() <= now.getTime())) {
    return 'grace_ended';
  }
  if (record.inactivityTimeoutDays) {
    const lastActivity = (record.lastUsedAt ?? record.createdAt).getTime();
    if (now.getTime() - lastActivity > record.inactivityTimeoutDays * DAY_MS) return 'inactive';
  }
  return null;
}
