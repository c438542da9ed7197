import { describe, expect, it } from 'vitest';
import type { McpLogRecord } from '../../mcp/ports';
import { mcpLogSchema } from './log-columns';

const record: McpLogRecord = {
  id: 'A0000001-0000-4000-8000-00000000000F',
  createdAt: new Date(Date.UTC(2025, 6, 1, 12, 0, 0, 500)),
  userId: 'B0000001-0000-4000-8000-00000000000F',
  apiKeyId: null,
  serverId: 'C0000001-0000-4000-8000-00000000000F',
  serverName: 'everything',
  toolName: 'echo',
  status: 'error',
  durationMs: 2 ** 31 - 1,
  error: "it's broken",
};

describe('ClickHouse MCP log rows', () => {
  it('stores uuids lowercased and maps the selected row back', () => {
    const row = mcpLogSchema.toRow(record);
    expect(row).toMatchObject({
      id: record.id.toLowerCase(),
      user_id: record.userId?.toLowerCase(),
      api_key_id: null,
      server_id: record.serverId.toLowerCase(),
      status: 'error',
      created_at_ms: record.createdAt.getTime(),
    });
    expect(mcpLogSchema.fromRow({ ...row, created_at_ms: String(row.created_at_ms) })).toEqual({
      ...record,
      id: record.id.toLowerCase(),
      userId: record.userId?.toLowerCase(),
      serverId: record.serverId.toLowerCase(),
    });
  });

  it('keeps the status an Enum8 of the two values', () => {
    expect(mcpLogSchema.ddl('sluice').sql).toContain("`status` Enum8('success' = 1, 'error' = 2)");
  });
});
