import type { McpLogFilter, McpLogRecord } from '../../mcp/ports';

export const DEFAULT_MCP_LOG_LIMIT = 50;
export const MAX_MCP_LOG_LIMIT = 200;
export const MCP_LOG_STATUSES = ['success', 'error'] as const;
export const MCP_LOG_SORTS = ['created_at', 'duration_ms'] as const;

/** duration_ms is a Postgres integer (and a UInt32 in ClickHouse): refuse what either would not keep. */
const MAX_DURATION_MS = 2 ** 31 - 1;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A filter with its defaults applied and every value checked, the same for both adapters. */
export type McpLogQuery = Omit<McpLogFilter, 'sortBy' | 'limit' | 'offset'> &
  Required<Pick<McpLogFilter, 'sortBy' | 'limit' | 'offset'>>;

/**
 * Validates a filter (RangeError on a bad value) and applies the defaults. The HTTP layer
 * validates first; this guards other callers, and keeps the two adapters answering alike
 * (Postgres would reject a malformed uuid, ClickHouse would just match nothing).
 */
export function mcpLogQuery(filter: McpLogFilter): McpLogQuery {
  const limit = filter.limit ?? DEFAULT_MCP_LOG_LIMIT;
  const offset = filter.offset ?? 0;
  const sortBy = filter.sortBy ?? 'created_at';
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_MCP_LOG_LIMIT) {
    throw new RangeError(`invalid limit ${limit} (1..${MAX_MCP_LOG_LIMIT})`);
  }
  if (!Number.isSafeInteger(offset) || offset < 0) throw new RangeError(`invalid offset ${offset}`);
  if (!MCP_LOG_SORTS.includes(sortBy)) throw new RangeError(`invalid sortBy ${String(sortBy)}`);
  if (filter.status !== undefined && !MCP_LOG_STATUSES.includes(filter.status)) {
    throw new RangeError(`invalid status ${String(filter.status)}`);
  }
  checkUuid('userId', filter.userId);
  checkUuid('serverId', filter.serverId);
  checkDate('from', filter.from);
  checkDate('to', filter.to);
  return { ...filter, sortBy, limit, offset };
}

/** Refuses a record neither adapter could store faithfully. */
export function checkMcpLogRecord(record: McpLogRecord): void {
  const { durationMs } = record;
  if (!Number.isSafeInteger(durationMs) || durationMs < 0 || durationMs > MAX_DURATION_MS) {
    throw new RangeError(`mcp log ${record.id}: invalid durationMs ${durationMs}`);
  }
  if (!MCP_LOG_STATUSES.includes(record.status)) {
    throw new RangeError(`mcp log ${record.id}: invalid status ${String(record.status)}`);
  }
  checkDate('createdAt', record.createdAt);
  checkUuid('id', record.id);
  checkUuid('serverId', record.serverId);
  checkUuid('userId', record.userId ?? undefined);
  checkUuid('apiKeyId', record.apiKeyId ?? undefined);
}

function checkUuid(name: string, value: string | undefined): void {
  if (value !== undefined && !UUID.test(value)) throw new RangeError(`invalid ${name} ${value}`);
}

function checkDate(name: string, value: Date | undefined): void {
  if (value !== undefined && !(value instanceof Date && Number.isFinite(value.getTime()))) {
    throw new RangeError(`invalid ${name}`);
  }
}
