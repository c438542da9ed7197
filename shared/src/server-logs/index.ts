import type { AnalyticsStoreOptions } from '../analytics/target';
import { createClickHouseAccessLogStore } from './clickhouse-access';
import { createClickHouseAppLogStore } from './clickhouse-app';
import { createPostgresAccessLogStore, createPostgresAppLogStore } from './postgres-store';
import type { AccessLogStore, AppLogStore } from './records';

export { createClickHouseAccessLogStore } from './clickhouse-access';
export { createClickHouseAppLogStore } from './clickhouse-app';
export { ACCESS_LOG_TABLE, APP_LOG_TABLE } from './clickhouse-tables';
export { createPostgresAccessLogStore, createPostgresAppLogStore } from './postgres-store';
export * from './query';
export * from './records';

export type ServerLogStoreOptions = AnalyticsStoreOptions;

/** The access log: ClickHouse when configured, otherwise the Postgres `access_logs` table. */
export function createAccessLogStore(options: ServerLogStoreOptions): AccessLogStore {
  const { clickhouse } = options;
  if (clickhouse) {
    return createClickHouseAccessLogStore(clickhouse.client, {
      database: clickhouse.database,
      ensureDatabase: clickhouse.ensureDatabase,
    });
  }
  return createPostgresAccessLogStore(options.db);
}

/** The application log: ClickHouse when configured, otherwise the Postgres `app_logs` table. */
export function createAppLogStore(options: ServerLogStoreOptions): AppLogStore {
  const { clickhouse } = options;
  if (clickhouse) {
    return createClickHouseAppLogStore(clickhouse.client, {
      database: clickhouse.database,
      ensureDatabase: clickhouse.ensureDatabase,
    });
  }
  return createPostgresAppLogStore(options.db);
}
