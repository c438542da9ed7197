import { generateApiKey } from '../auth/api-keys/api-key';
import { invalidateKeyHashes } from '../auth/api-keys/auth-cache';
import { type ApiKeyRow, updateKeyRow } from '../db/repos/api-keys-repo';
import { writeAudit } from '../db/repos/audit-repo';
import { loadSettings } from '../db/repos/settings-repo';
import { commitThenBump } from '../runtime/cache-versions';
import { requireOwnedKey } from './manage';
import { isUnissued, type KeyActor, type KeysDeps, requireActiveKey } from './state';
import type { RotatedKeyView } from './views';

interface ReplacedValue {
  /** Hash that stays accepted until graceEndsAt; null when no value needs a grace period. */
  hash: string | null;
  graceEndsAt: Date;
}

/**
 * Which old value keeps working after this rotation. Normally the current one, for the
 * configured grace. After an automatic rotation nobody holds the current (unissued) value:
 * consumers still use the previous one, so it keeps its own grace end instead of being
 * dropped. A grace end equal to the rotation time means no old value stays valid.
 */
function replacedValue(row: ApiKeyRow, now: Date, graceSeconds: number): ReplacedValue {
  if (!isUnissued(row.keyHash)) {
    return { hash: row.keyHash, graceEndsAt: new Date(now.getTime() + graceSeconds * 1000) };
  }
  const graceRunning = row.gracePeriodEndsAt !== null && row.gracePeriodEndsAt.getTime() > now.getTime();
  return row.previousKeyHash && graceRunning && row.gracePeriodEndsAt
    ? { hash: row.previousKeyHash, graceEndsAt: row.gracePeriodEndsAt }
    : { hash: null, graceEndsAt: now };
}

/** Issues a new secret (returned once); the old one stays valid until the grace period ends. */
export async function rotateKey(
  deps: KeysDeps,
  actor: KeyActor,
  id: string,
  now = new Date(),
): Promise<RotatedKeyView> {
  const { api_key_rotation_grace_seconds: graceSeconds } = await loadSettings(deps.db);
  const generated = await generateApiKey();
  return commitThenBump(deps, ['keys'], async (tx) => {
    const row = await requireOwnedKey(tx, actor.userId, id, true);
    requireActiveKey(row, now);
    const previous = replacedValue(row, now, graceSeconds);
    const updated = await updateKeyRow(tx, id, {
      keyHash: generated.hash,
      prefix: generated.prefix,
      previousKeyHash: previous.hash,
      gracePeriodEndsAt: previous.graceEndsAt,
      rotatedAt: now,
      updatedAt: now,
    });
    const graceEnds = previous.graceEndsAt.toISOString();
    await writeAudit(tx, {
      ...actor,
      action: 'key.rotate',
      resourceType: 'api_key',
      resourceId: id,
      details: { automatic: false, prefix: generated.prefix, grace_period_ends_at: graceEnds },
    });
    await invalidateKeyHashes(deps.redis, [row.keyHash, row.previousKeyHash]);
    return {
      id: updated.id,
      name: updated.name,
      key: generated.key,
      grace_period_ends_at: graceEnds,
      rotated_at: now.toISOString(),
    };
  });
}
