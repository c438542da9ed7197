import type { McpLogRecord } from '../../mcp/ports';
import { chEnum8, chNullable, chString, chUInt32, chUuid } from '../analytics/clickhouse-columns';
import { chLogSchema } from '../analytics/clickhouse-schema';

export const MCP_LOG_TABLE = 'mcp_logs';

/**
 * The MCP call log's columns: its ClickHouse table (18.16-compatible; UUIDs stored lowercased
 * (chUuid), as Postgres returns them; status an Enum8, so a value outside the two is refused,
 * like the Postgres check constraint) and the console API's view of a row (toView), whichever
 * store holds the log.
 */
export const mcpLogSchema = chLogSchema<McpLogRecord>({
  name: MCP_LOG_TABLE,
  label: 'mcp log',
  id: chUuid('id'),
  columns: {
    userId: chNullable(chUuid('user_id')),
    apiKeyId: chNullable(chUuid('api_key_id')),
    serverId: chUuid('server_id'),
    serverName: chString('server_name'),
    toolName: chString('tool_name'),
    status: chEnum8('status', { success: 1, error: 2 }),
    durationMs: chUInt32('duration_ms'),
    error: chNullable(chString('error')),
  },
});
