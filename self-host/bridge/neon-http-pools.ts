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

/** One pg Pool per (user, password, database), all pointed at the configured target. */
export function createPoolRegistry(target: { host: string; port: number }): PoolRegistry {
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
          max: 10,
          // Short idle life: PGlite's socket server allows only a few connections in total,
          // and the WebSocket proxy needs some of them.
          idleTimeoutMillis: 5_000,
          connectionTimeoutMillis: 10_000,
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
