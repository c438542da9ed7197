export { type ClickHouseMcpLogStoreOptions, createClickHouseMcpLogStore } from './clickhouse-store';
export {
  DEFAULT_MCP_LOG_LIMIT,
  MAX_MCP_LOG_LIMIT,
  MCP_LOG_SORTS,
  MCP_LOG_STATUSES,
  type McpLogQuery,
  mcpLogQuery,
} from './filter';
export { MCP_LOG_TABLE, mcpLogSchema } from './log-columns';
export { createPostgresMcpLogStore } from './postgres-store';
