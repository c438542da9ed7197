export {
  type ClickHouseMcpLogStoreOptions,
  createClickHouseMcpLogStore,
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
