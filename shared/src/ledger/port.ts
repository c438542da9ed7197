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
