import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { invalidateKeyHashes } from '../auth/api-keys/auth-cache';
import { type KeyAuditSpec, selectKeyHashes, updateKeysAudited } from '../db/repos/api-keys-repo';
import { loadSettings } from '../db/repos/settings-repo';
import { apiKeys } from '../db/schema';
import { bumpCacheVersions } from '../runtime/cache-versions';
import {
  expiredCondition,
  inactiveCondition,
  type KeyStateDeps,
  rotationDueCondition,
  UNISSUED_PREFIX,
} from './state';

/**
 * Time-driven key transitions: expiry, inactivity and automatic rotation. Each one is safe
 * to run from several places at once (console timer, gateway cron): the condition is checked
 * again by the UPDATE itself, so a key changes, and is audited, at most once.
 */

/** A db (any driver: every statement here stands alone) and the Redis holding the key cache. */
export type KeyJobDeps = KeyStateDeps;

/** Keys handled per job per run; the rest wait for the next run. */
const BATCH = 500;

/**
 * Invalidates the cache entries of the keys matching `where`, then changes them with one
 * audit row each. Invalidating first means a Redis outage leaves the keys untouched (the
 * next run retries) instead of changed but still cached as before.
 */
async function transitionKeys(
  deps: KeyJobDeps,
  where: SQL | undefined,
  set: PgUpdateSetSource<typeof apiKeys>,
  audit: KeyAuditSpec,
): Promise<number> {
  const candidates = await selectKeyHashes(deps.db, where, BATCH);
  if (candidates.length === 0) return 0;
  await invalidateKeyHashes(
    deps.redis,
    candidates.flatMap((k) => [k.keyHash, k.previousKeyHash]),
  );
  const ids = candidates.map((k) => k.id);
  const changed = await updateKeysAudited(
    deps.db,
    { where: and(inArray(apiKeys.id, ids), where), set },
    audit,
  );
  await bumpCacheVersions(deps, ['keys']);
  return changed.length;
}

/** Marks keys whose expires_at has passed as expired (the gateway refuses them already). */
export function sweepExpiredKeys(deps: KeyJobDeps, now: Date): Promise<number> {
  return transitionKeys(
    deps,
    expiredCondition(now),
    { status: 'expired', updatedAt: now },
    {
      action: 'key.expire',
      details: { automatic: true },
      now,
    },
  );
}

const disableSet = (now: Date): PgUpdateSetSource<typeof apiKeys> => ({
  status: 'disabled',
  disabledAt: now,
  updatedAt: now,
});
const disableAudit = (now: Date): KeyAuditSpec => ({
  action: 'key.disable',
  details: { automatic: true, reason: 'inactivity' },
  now,
});

/** Disables every key unused for longer than its inactivity_timeout_days. Final: nothing re-enables it. */
export function sweepInactiveKeys(deps: KeyJobDeps, now: Date): Promise<number> {
  return transitionKeys(deps, inactiveCondition(now), disableSet(now), disableAudit(now));
}

/**
 * The gateway's lazy path: it found this key inactive while authenticating. The condition is
 * re-checked against Postgres, so a stale cached last_used_at cannot disable a key in use.
 */
export async function disableInactiveKey(deps: KeyJobDeps, keyId: string, now: Date): Promise<boolean> {
  const where = and(eq(apiKeys.id, keyId), inactiveCondition(now));
  return (await transitionKeys(deps, where, disableSet(now), disableAudit(now))) > 0;
}

/**
 * Rotates keys whose rotation_interval_days has elapsed since their last rotation (or
 * creation). The current value moves to previous_key_hash and stays valid for the grace
 * period; the new value is not issued to anybody (the hash becomes an "unissued" marker),
 * because a secret nobody can read is useless. The owner gets a working value with
 * POST /api/keys/{id}/rotate before the grace period ends; see docs/keys.md.
 */
export async function rotateDueKeys(deps: KeyJobDeps, now: Date): Promise<number> {
  const { api_key_rotation_grace_seconds: graceSeconds } = await loadSettings(deps.db);
  const graceEnds = new Date(now.getTime() + graceSeconds * 1000);
  const set: PgUpdateSetSource<typeof apiKeys> = {
    previousKeyHash: sql`${apiKeys.keyHash}`,
    keyHash: sql`${UNISSUED_PREFIX}::text || gen_random_uuid()::text`,
    gracePeriodEndsAt: graceEnds,
    rotatedAt: now,
    updatedAt: now,
  };
  return transitionKeys(deps, rotationDueCondition(now), set, {
    action: 'key.rotate',
    details: { automatic: true, grace_period_ends_at: graceEnds.toISOString() },
    now,
  });
}

export interface KeyJobsResult {
  expired: number;
  disabled: number;
  rotated: number;
}

/** All three, in an order where a key that just expired or went idle is not also rotated. */
export async function runKeyJobs(deps: KeyJobDeps, now: Date): Promise<KeyJobsResult> {
  const expired = await sweepExpiredKeys(deps, now);
  const disabled = await sweepInactiveKeys(deps, now);
  const rotated = await rotateDueKeys(deps, now);
  return { expired, disabled, rotated };
}
