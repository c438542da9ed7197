import type { PasswordHasher } from '../auth/sign-in/ports';
import type { AuditRecord } from '../db/repos/audit-repo';
import type { Db } from '../db/types';
import type { Logger } from '../logs/server/logger';
import type { RedisPort } from '../stores/redis-port';

/** Who made an admin change and from where; copied into every audit record. */
export type AuditActor = Pick<AuditRecord, 'userId' | 'userEmail' | 'ipAddress' | 'userAgent'>;

/** `db` must support transactions; `redis` holds the gateway's API-key auth cache. */
export interface UsersAdminDeps {
  db: Db;
  passwords: PasswordHasher;
  redis: Pick<RedisPort, 'set' | 'incr'>;
  /** Told when the gateways' caches could not be told of a committed change. */
  logger: Pick<Logger, 'warn'>;
}
