import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns';

/**
 * The MCP call log: one row per tools/call through the gateway (see McpLogRecord in
 * mcp/ports.ts). Used when ClickHouse is not configured. No foreign keys: log rows outlive the
 * servers, keys and users they name, so server_name is kept as it was at call time.
 */
export const mcpLogs = pgTable(
  'mcp_logs',
  {
    id: id(),
    /** When the call started. */
    createdAt: createdAt(),
    userId: uuid('user_id'),
    apiKeyId: uuid('api_key_id'),
    serverId: uuid('server_id').notNull(),
    serverName: text('server_name').notNull(),
    toolName: text('tool_name').notNull(),
    status: text('status').$type<'success' | 'error'>().notNull(),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
  },
  (t) => [
    index('mcp_logs_created_idx').on(t.createdAt),
    index('mcp_logs_server_created_idx').on(t.serverId, t.createdAt),
    check('mcp_logs_status_check', sql`${t.status} in ('success','error')`),
  ],
);
