import type { RedisPort } from '../stores/redis-port';
import { bumpVersion } from '../stores/versioned-cache';

/**
 * Gateways cache limit definitions per isolate (see stores/versioned-cache.ts). The console
 * INCRs this counter after every committed change to roles, teams, memberships, rules,
 * budgets, a key's rate_limit_rpm or a user's role, and every isolate reloads at once.
 */
export const LIMITS_VERSION_KEY = 'sluice:limits:version';

export function bumpLimitsVersion(redis: Pick<RedisPort, 'incr'>): Promise<number> {
  return bumpVersion(redis, LIMITS_VERSION_KEY);
}
