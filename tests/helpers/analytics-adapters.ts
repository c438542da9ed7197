import type { ClickHouseClient } from '@clickhouse/client-web';
import { inject } from 'vitest';
import { createPostgresPool } from '../../console-server/src/stores/postgres';
import { chIdent, chSql } from '../../shared/src/logs/analytics/clickhouse-sql';
import { type AnalyticsStore, createAnalyticsStore } from '../../shared/src/logs/analytics/store';
import { createClickHouse, ensureClickHouseDatabase } from '../../shared/src/stores/clickhouse';
import { configureNeon, createHttpDb } from '../../shared/src/stores/neon';
import { CLICKHOUSE_URL } from './env';
import { freshDatabase } from './stores';

export type AdapterName = 'neon-http' | 'pg-pool' | 'clickhouse';
export const ADAPTER_NAMES: readonly AdapterName[] = ['neon-http', 'pg-pool', 'clickhouse'];

export interface AnalyticsAdapters {
  stores: Record<AdapterName, AnalyticsStore>;
  /** A client on the server's default database, for checks and extra databases. */
  ch: ClickHouseClient;
  close(): Promise<void>;
}

/**
 * The analytics store over every real driver: Postgres by Neon HTTP through the dev sidecar and
 * by the console's node-postgres pool (fresh databases `<pgName>_http` and `<pgName>`), and ClickHouse (database
 * `chDatabase`, dropped first; given no Postgres, so it must not touch it).
 */
export async function startAnalyticsAdapters(options: {
  pgName: string;
  chDatabase: string;
}): Promise<AnalyticsAdapters> {
  const sidecar = inject('sidecarEnv');
  configureNeon({ httpEndpoint: sidecar.NEON_LOCAL_HTTP });
  const [httpUrl, poolUrl] = await Promise.all([
    freshDatabase(`${options.pgName}_http`),
    freshDatabase(options.pgName),
  ]);
  const pooled = createPostgresPool(poolUrl, 2);
  const ch = createClickHouse({ url: CLICKHOUSE_URL, database: 'default', requestTimeoutMs: 10_000 });
  const database = options.chDatabase;
  await ch.command({ query: chSql`DROP DATABASE IF EXISTS ${chIdent(database)}`.sql });
  const stores: Record<AdapterName, AnalyticsStore> = {
    'neon-http': createAnalyticsStore({ db: createHttpDb(httpUrl) }),
    'pg-pool': createAnalyticsStore({ db: pooled.db }),
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
