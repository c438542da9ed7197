import type { ClickHouseClient } from '@clickhouse/client-web';
import type { StoreEnv } from '../../config/env';
import type { QueryDb } from '../../db/types';
import {
  createClickHouse,
  DEFAULT_REQUEST_TIMEOUT_MS,
  ensureClickHouseDatabase,
} from '../../stores/clickhouse';

/** A ClickHouse database the logs go to. */
export interface ClickHouseTarget {
  client: ClickHouseClient;
  database: string;
  /** Creates the database before the tables (see ensureClickHouseDatabase). */
  ensureDatabase?: () => Promise<void>;
  /** The client's own request timeout: a probe waits no longer. */
  timeoutMs?: number;
}

/** Every log store: ClickHouse when given, otherwise its Postgres table (ClickHouse is optional). */
export interface AnalyticsStoreOptions {
  db: QueryDb;
  clickhouse?: ClickHouseTarget | null;
  /** Told when inserts start going to the Postgres spill (true) and when ClickHouse is back. */
  onClickHouseChange?: (open: boolean, error?: unknown) => void;
}

/**
 * The ClickHouse database the logs live in, from the store environment; null without
 * CLICKHOUSE_URL (logs then go to Postgres). Each call makes its own client: a job that runs
 * long DROP/DELETE statements should not queue behind the routes' queries.
 */
export function clickhouseTargetFor(
  config: Pick<
    StoreEnv,
    'CLICKHOUSE_URL' | 'CLICKHOUSE_USER' | 'CLICKHOUSE_PASSWORD' | 'CLICKHOUSE_DATABASE'
  >,
  requestTimeoutMs?: number,
): ClickHouseTarget | null {
  if (!config.CLICKHOUSE_URL) return null;
  const clickhouseConfig = {
    url: config.CLICKHOUSE_URL,
    username: config.CLICKHOUSE_USER,
    password: config.CLICKHOUSE_PASSWORD,
    database: config.CLICKHOUSE_DATABASE,
    requestTimeoutMs,
  };
  return {
    client: createClickHouse(clickhouseConfig),
    database: clickhouseConfig.database,
    ensureDatabase: () => ensureClickHouseDatabase(clickhouseConfig),
    timeoutMs: requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
  };
}
