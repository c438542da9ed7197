import { debuglog } from 'node:util';
import pg from 'pg';
import type { ConnectionIdentity } from './neon-http-request';

const debug = debuglog('sluice-bridge');

/**
 * Every type parser returns the wire text unchanged: Neon answers with raw text
 * (`Neon-Raw-Text-Output: true`) and the driver applies its own parsers client-side.
 */
const RAW_TEXT_TYPES: pg.CustomTypesConfig = {
  getTypeParser: () => (value: string) => value,
};

export interface PoolRegistry {
  /** The pool for this user/database, created on first use. */
  poolFor(identity: ConnectionIdentity): pg.Pool;
  close(): Promise<void>;
}

export interface PoolSettings {
  /** Connections per user/database. */
  size: number;
  /** Bound on getting a connection and on each statement (a timed-out connection is dropped). */
  timeoutMs: number;
}

/**
 * One pg Pool per (user, password, database), all pointed at the configured target. Connections
 * are opened on demand, kept for reuse across requests (one stays open even when idle, so a
 * quiet spell does not cost the next request a connection set-up) and closed after 30 s idle.
 */
export function createPoolRegistry(
  target: { host: string; port: number },
  settings: PoolSettings,
): PoolRegistry {
  const pools = new Map<string, pg.Pool>();
  return {
    poolFor(identity) {
      const key = JSON.stringify([identity.user, identity.password ?? null, identity.database]);
      let pool = pools.get(key);
      if (!pool) {
        pool = new pg.Pool({
          host: target.host,
          port: target.port,
          user: identity.user,
          password: identity.password,
          database: identity.database,
          types: RAW_TEXT_TYPES,
          max: settings.size,
          min: 1,
          idleTimeoutMillis: 30_000,
          connectionTimeoutMillis: settings.timeoutMs,
          // Client-side bound on one statement, so a hung connection cannot hold a request (and
          // its share of the statement budget) for long; pool.query() then drops it.
          query_timeout: settings.timeoutMs,
          keepAlive: true,
          allowExitOnIdle: true,
        });
        // An idle client whose server went away emits here; without a listener that would
        // crash the process.
        pool.on('error', (error) => debug('neon http: idle connection error: %s', error.message));
        pools.set(key, pool);
      }
      return pool;
    },
    async close() {
      const all = [...pools.values()];
      pools.clear();
      await Promise.allSettled(all.map((pool) => pool.end()));
    },
  };
}
