import type { AnalyticsStoreOptions } from '../../analytics/target';
import type { McpLogStore } from '../ports';
import { createClickHouseMcpLogStore } from './clickhouse-store';
import { createPostgresMcpLogStore } from './postgres-store';

export {
  type ClickHouseMcpLogStoreOptions,
  createClickHouseMcpLogStore,
  ensureMcpLogTable,
  MCP_LOG_TABLE,
} from './clickhouse-store';
export {
  DEFAULT_MCP_LOG_LIMIT,
  MAX_MCP_LOG_LIMIT,
  MCP_LOG_SORTS,
  MCP_LOG_STATUSES,
  type McpLogQuery,
  mcpLogQuery,
} from './filter';
export { createPostgresMcpLogStore } from './postgres-store';

export type McpLogStoreOptions = AnalyticsStoreOptions;

/** The MCP call log: ClickHouse when configured, otherwise the Postgres `mcp_logs` table. */
export function createMcpLogStore(options: McpLogStoreOptions): McpLogStore {
  const { clickhouse } = options;
  if (clickhouse) {
    return createClickHouseMcpLogStore(clickhouse.client, {
      database: clickhouse.database,
      ensureDatabase: clickhouse.ensureDatabase,
    });
  }
  return createPostgresMcpLogStore(options.db);
}
