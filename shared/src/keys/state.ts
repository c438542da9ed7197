import { and, eq, gt, isNotNull, isNull, lte, notLike, or, type SQL, sql } from 'drizzle-orm';
import { refuseKey } from '../auth/api-keys/key-state';
import type { ApiKeyAuthRecord, ApiKeyRow } from '../db/repos/api-keys-repo';
import type { AuditRecord } from '../db/repos/audit-repo';
import { apiKeys } from '../db/schema';
import type { Db, QueryDb } from '../db/types';
import { conflict } from '../http/app-error';
import type { Logger } from '../logs/server/logger';
import type { RedisPort } from '../stores/redis-port';

/** What the key operations need: a transactional db and the Redis holding the key cache. */
export interface KeysDeps {
  db: Db;
  redis: Pick<RedisPort, 'set' | 'incr'>;
  /** Told when the gateways' caches could not be told of a committed change. */
  logger: Pick<Logger, 'warn'>;
}

/** What the key jobs and the gateway's key updates need: one statement at a time (Neon HTTP). */
export type KeyStateDeps = Omit<KeysDeps, 'db'> & { db: QueryDb };

/** The signed-in caller (who owns the keys) and where the request came from, for audit. */
export type KeyActor = Pick<AuditRecord, 'userEmail' | 'ipAddress' | 'userAgent'> & { userId: string };

/**
 * An automatic rotation retires the current value without issuing a new one to anybody: the
 * key hash becomes this marker (which no SHA-256 hex digest can equal) until the owner
 * rotates by hand and receives a value.
 */
export const UNISSUED_PREFIX = 'unissued:';
export const isUnissued = (hash: string): boolean => hash.startsWith(UNISSUED_PREFIX);

export type KeyState = 'active' | 'revoked' | 'disabled' | 'expired';

/**
 * The state the gateway would see now, which can be ahead of the stored status until the
 * sweeps catch up. Uses the gateway's own rule (refuseKey) so the two never disagree.
 */
export function keyState(row: ApiKeyRow, now: Date): KeyState {
  const record: ApiKeyAuthRecord = { ...row, userRole: 'user', userActive: true };
  const refusal = refuseKey(record, row.keyHash, now);
  if (refusal === 'revoked' || refusal === 'expired') return refusal;
  if (refusal === 'disabled' || refusal === 'inactive') return 'disabled';
  return 'active';
}

/** PATCH and rotate apply to usable keys only: disabled and expired keys are final. */
export function requireActiveKey(row: ApiKeyRow, now: Date): void {
  const state = keyState(row, now);
  if (state !== 'active') throw conflict(`API key is ${state}; create a new key instead`);
}

// The SQL forms below restate refuseKey's rules for the bulk jobs; keep them in step.
const at = (now: Date) => sql`${now.toISOString()}::timestamptz`;

export function expiredCondition(now: Date): SQL | undefined {
  return and(eq(apiKeys.status, 'active'), isNotNull(apiKeys.expiresAt), lte(apiKeys.expiresAt, now));
}

export function inactiveCondition(now: Date): SQL | undefined {
  return and(
    eq(apiKeys.status, 'active'),
    gt(apiKeys.inactivityTimeoutDays, 0),
    sql`${at(now)} - coalesce(${apiKeys.lastUsedAt}, ${apiKeys.createdAt}) > make_interval(days => ${apiKeys.inactivityTimeoutDays})`,
  );
}

export function rotationDueCondition(now: Date): SQL | undefined {
  return and(
    eq(apiKeys.status, 'active'),
    gt(apiKeys.rotationIntervalDays, 0),
    sql`coalesce(${apiKeys.rotatedAt}, ${apiKeys.createdAt}) + make_interval(days => ${apiKeys.rotationIntervalDays}) <= ${at(now)}`,
    notLike(apiKeys.keyHash, `${UNISSUED_PREFIX}%`),
    or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)),
  );
}
