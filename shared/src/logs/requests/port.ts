import type { StatusMatch } from '../status-match';
import type { UsageAggregateQuery, UsageBucketRow } from './aggregate-query';
import type { BreakdownQuery, ClientUsageRow, ErrorCountRow } from './breakdown-query';
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
  /**
   * What one key's or one user's requests since `since` logged (GET /v1/usage), in one query:
   * their total cost (unpriced rows add 0) and their prompt-cache and reasoning tokens.
   */
  usageSince(filter: UsageSinceFilter): Promise<LoggedUsage>;
  /** The admin search (GET /api/gateway/logs): one page and the total of every match. */
  search(filter: RequestLogSearch): Promise<RequestLogSearchPage>;
  /**
   * Usage and cost analytics (GET /api/analytics/*): rows grouped by UTC bucket start and model,
   * only non-empty groups, in no particular order. Checked by usageAggregateQuery (aggregate-query.ts).
   */
  aggregate(query: UsageAggregateQuery): Promise<UsageBucketRow[]>;
  /**
   * Requests, tokens and cost per client name and version (GET /api/analytics/clients), only
   * non-empty groups, in no particular order. Checked by breakdownQuery (breakdown-query.ts).
   */
  clientUsage(query: BreakdownQuery): Promise<ClientUsageRow[]>;
  /**
   * Failed requests (status >= 400) per error type, client name and status code
   * (GET /api/analytics/errors), in no particular order. Checked by breakdownQuery.
   */
  errorCounts(query: BreakdownQuery): Promise<ErrorCountRow[]>;
  /**
   * What the limits counted of the requests that started in [since, before), per key, user and
   * UTC day: the requests admission let through, and the weighted tokens of those that ended
   * before `before` (limits/counter-rebuild.ts). Rows without a user are left out.
   */
  countedUsage(query: CountedUsageQuery): Promise<CountedUsageRow[]>;
}

export interface CountedUsageQuery {
  since: Date;
  before: Date;
}

export interface CountedUsageRow {
  apiKeyId: string | null;
  userId: string;
  /** Days since 1970-01-01 (UTC) of the requests' start. */
  day: number;
  requests: number;
  weightedTokens: number;
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
  /** One status code (429) or a class of them ('4xx'). */
  statusCode?: StatusMatch;
  /** True: only requests of unpriced models (cost_usd null, unpriced set). */
  unpriced?: boolean;
  /** The client recognised from the User-Agent (client-identity.ts), e.g. `codex`. */
  clientName?: string;
  /** The error type of a failed or refused request, e.g. `invalid_request_error`. */
  errorType?: string;
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

export type UsageSinceFilter = { since: Date } & ({ apiKeyId: string } | { userId: string });

/** Sums over the matching rows; 0 when there are none. */
export interface LoggedUsage {
  /** Sum of non-null cost_usd: unpriced rows add 0. */
  costUsd: number;
  /** cached_tokens: input tokens read from the vendor's prompt cache. */
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
}

/** Validated paging for both adapters. */
export function requestLogPage(filter: RequestLogFilter): { limit: number; offset: number } {
  const limit = filter.limit ?? DEFAULT_REQUEST_LOG_LIMIT;
  const offset = filter.offset ?? 0;
  if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`invalid limit ${limit}`);
  if (!Number.isSafeInteger(offset) || offset < 0) throw new RangeError(`invalid offset ${offset}`);
  return { limit, offset };
}
