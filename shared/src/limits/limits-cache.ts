import { loadStoredLimits } from '../db/repos/limits-repo';
import type { QueryDb } from '../db/types';
import type { RedisPort } from '../stores/redis-port';
import { createVersionedCache } from '../stores/versioned-cache';
import { type LimitSubject, type SubjectLimits, subjectLimits } from './definitions';
import { LIMITS_VERSION_KEY } from './version';

/**
 * Limit definitions of (key, owner) per isolate, so admission needs no Postgres round trip on
 * a warm isolate. The console bumps LIMITS_VERSION_KEY after every change to roles, teams,
 * rules, budgets or a user's role; rate_limit_rpm travels with the key's cached record.
 */
export function createLimitsCache(options: {
  db: QueryDb;
  redis: Pick<RedisPort, 'get'> | null;
  ttlMs?: number;
}): (subject: LimitSubject) => Promise<SubjectLimits> {
  const cached = createVersionedCache<SubjectLimits>({
    redis: options.redis,
    versionKey: LIMITS_VERSION_KEY,
    ttlMs: options.ttlMs ?? 30_000,
    load: async (id) => {
      const subject = JSON.parse(id) as LimitSubject;
      return subjectLimits(await loadStoredLimits(options.db, subject.keyId, subject.userId), subject);
    },
  });
  return ({ keyId, userId, rateLimitRpm }) => cached(JSON.stringify({ keyId, userId, rateLimitRpm }));
}
