import type { UsageAggregateQuery, UsageBucketRow } from './aggregate-query';
import type { RequestLogRecord } from './record';

export interface RequestLogFilter {
  /** Rows to return; default DEFAULT_REQUEST_LOG_LIMIT. */
  limit?: number;
  /** Rows to skip; default 0. */
  offset?: number;
  apiKeyId?: string;
}

export const DEFAULT_REQUEST_LOG_LIMIT = 50;

/** Where request-log records go: Postgres by default, ClickHouse when configured. */
export interface RequestLogStore {
  /** Appends the records in one batch; resolves once they are stored. */
  insert(records: readonly RequestLogRecord[]): Promise<void>;
  /** Newest first, stable: created_at descending, then id descending. */
  list(filter?: RequestLogFilter): Promise<RequestLogRecord[]>;
  /** Total cost_usd of one key's or one user's requests since `since` (unpriced rows add 0). */
  costSince(filter: CostFilter): Promise<number>;
  /** The admin search (GET /api/gateway/logs): one page and the total of every match. */
  search(filter: RequestLogSearch): Promise<RequestLogSearchPage>;
  /**
   * Usage and cost analytics (GET /api/analytics/*): rows grouped by UTC bucket start and model,
   * only non-empty groups, in no particular order. Checked by usageAggregateQuery (aggregate-query.ts).
   */
  aggregate(query: UsageAggregateQuery): Promise<UsageBucketRow[]>;
}

/**
 * The admin search (GET /api/gateway/logs). Every condition is exact and they combine with AND;
 * from/to are inclusive. Checked by requestLogSearchQuery (search-filter.ts).
 */
export interface RequestLogSearch {
  model?: string;
  provider?: string;
  userId?: string;
  apiKeyId?: string;
  statusCode?: number;
  from?: Date;
  to?: Date;
  /** Always descending, ties by id descending; cost_usd puts unpriced (NULL) rows last. */
  sortBy?: 'created_at' | 'cost_usd' | 'latency_ms';
  /** 1..MAX_REQUEST_LOG_SEARCH_LIMIT; default DEFAULT_REQUEST_LOG_LIMIT. */
  limit?: number;
  offset?: number;
}

export interface RequestLogSearchPage {
  /** Rows matching the filter, whatever the page. */
  total: number;
  entries: RequestLogRecord[];
}

export type CostFilter = { since: Date } & ({ apiKeyId: string } | { userId: string });

/** Validated paging for both adapters. */
export function requestLogPage(filter: RequestLogFilter): { limit: number; offset: number } {
  const limit = filter.limit ?? DEFAULT_REQUEST_LOG_LIMIT;
  const offset = filter.offset ?? 0;
  if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`invalid limit ${limit}`);
  if (!Number.isSafeInteger(offset) || offset < 0) throw new RangeError(`invalid offset ${offset}`);
  return { limit, offset };
}
