import type { ClickHouseTarget } from '@sluice/shared/analytics/target';
import type { StoreEnv } from '@sluice/shared/config/env';
import { createClickHouse, ensureClickHouseDatabase } from '@sluice/shared/stores/clickhouse';

export type { ClickHouseTarget };

/** One client per isolate, shared by the request log and the MCP call log; null: logs in Postgres. */
export function clickhouseTargetFor(config: StoreEnv): ClickHouseTarget | null {
  if (!config.CLICKHOUSE_URL) return null;
  const clickhouseConfig = {
    url: config.CLICKHOUSE_URL,
    username: config.CLICKHOUSE_USER,
    password: config.CLICKHOUSE_PASSWORD,
    database: config.CLICKHOUSE_DATABASE,
  };
  return {
    client: createClickHouse(clickhouseConfig),
    database: clickhouseConfig.database,
    ensureDatabase: () => ensureClickHouseDatabase(clickhouseConfig),
  };
}
