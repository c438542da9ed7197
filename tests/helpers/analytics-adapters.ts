import type { ClickHouseClient } from '@clickhouse/client-web';
import { inject } from 'vitest';
import ws from 'ws';
import { chIdent, chSql } from '../../shared/src/logs/analytics/clickhouse-sql';
import { type AnalyticsStore, createAnalyticsStore } from '../../shared/src/logs/analytics/store';
import { createClickHouse, ensureClickHouseDatabase } from '../../shared/src/stores/clickhouse';
import { configureNeon, createHttpDb, createPooledDb } from '../../shared/src/stores/neon';
import { CLICKHOUSE_URL } from './env';
import { freshDatabase } from './stores';

export type AdapterName = 'neon-http' | 'neon-pool' | 'clickhouse';
export const ADAPTER_NAMES: readonly AdapterName[] = ['neon-http', 'neon-pool', 'clickhouse'];

export interface AnalyticsAdapters {
  stores: Record<AdapterName, AnalyticsStore>;
  /** A client on the server's default database, for checks and extra databases. */
  ch: ClickHouseClient;
  close(): Promise<void>;
}

/**
 * The analytics store over every real driver: Postgres through the dev sidecar by Neon HTTP and
 * by a Neon Pool (fresh databases `<pgName>_http` and `<pgName>`), and ClickHouse (database
 * `chDatabase`, dropped first; given no Postgres, so it must not touch it).
 */
export async function startAnalyticsAdapters(options: {
  pgName: string;
  chDatabase: string;
}): Promise<AnalyticsAdapters> {
  const sidecar = inject('sidecarEnv');
  configureNeon({ httpEndpoint: sidecar.NEON_LOCAL_HTTP, wsProxy: sidecar.NEON_LOCAL_WS_PROXY }, ws);
  const [httpUrl, poolUrl] = await Promise.all([
    freshDatabase(`${options.pgName}_http`),
    freshDatabase(options.pgName),
  ]);
  const pooled = createPooledDb(poolUrl, 2);
  const ch = createClickHouse({ url: CLICKHOUSE_URL, database: 'default', requestTimeoutMs: 10_000 });
  const database = options.chDatabase;
  await ch.command({ query: chSql`DROP DATABASE IF EXISTS ${chIdent(database)}`.sql });
  const stores: Record<AdapterName, AnalyticsStore> = {
    'neon-http': createAnalyticsStore({ db: createHttpDb(httpUrl) }),
    'neon-pool': createAnalyticsStore({ db: pooled.db }),
    clickhouse: createAnalyticsStore({
      db: undefined as never,
      clickhouse: {
        client: ch,
        database,
        ensureDatabase: () => ensureClickHouseDatabase({ url: CLICKHOUSE_URL, database }),
      },
    }),
  };
  return {
    stores,
    ch,
    async close() {
      await pooled.pool.end();
      await ch.close();
    },
  };
}
