import type { ClickHouseClient } from '@clickhouse/client-web';
import type { Db } from '../db/types';

/** A ClickHouse database the logs go to. */
export interface ClickHouseTarget {
  client: ClickHouseClient;
  database: string;
  /** Creates the database before the tables (see ensureClickHouseDatabase). */
  ensureDatabase?: () => Promise<void>;
}

/** Every log store: ClickHouse when given, otherwise its Postgres table (SPEC: analytics optional). */
export interface AnalyticsStoreOptions {
  db: Db;
  clickhouse?: ClickHouseTarget | null;
}
