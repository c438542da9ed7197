import type { ClientUsageRow, ErrorCountRow } from '../requests/breakdown-query';
import { roundUsd } from '../requests/cost';

/**
 * Pure shaping of the by-client and by-error rows (RequestLogStore.clientUsage, errorCounts)
 * into the console's answers (GET /api/analytics/clients, /errors): snake_case, most requests
 * first, ties in a fixed order so the answer never depends on the store.
 */

export interface ClientUsage {
  /** Null: requests that carried no User-Agent. */
  client_name: string | null;
  client_version: string | null;
  requests: number;
  /** Requests answered with a status of 400 or more. */
  errors: number;
  prompt_tokens: number;
  completion_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  reasoning_tokens: number;
  /** Sum of the priced requests; null when none was priced (unknown, not $0). */
  cost_usd: number | null;
  unpriced_requests: number;
}

export interface ErrorCount {
  error_type: string | null;
  client_name: string | null;
  status_code: number;
  requests: number;
}

/** Nulls after every name; otherwise by code point, as both stores would sort bytes. */
function byName(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

export function clientReport(rows: readonly ClientUsageRow[]): { data: ClientUsage[] } {
  const data = rows
    .map(
      (row): ClientUsage => ({
        client_name: row.clientName,
        client_version: row.clientVersion,
        requests: row.requests,
        errors: row.errors,
        prompt_tokens: row.promptTokens,
        completion_tokens: row.completionTokens,
        cache_read_tokens: row.cacheReadTokens,
        cache_write_tokens: row.cacheWriteTokens,
        reasoning_tokens: row.reasoningTokens,
        cost_usd: row.requests > row.unpricedRequests ? roundUsd(row.costUsd) : null,
        unpriced_requests: row.unpricedRequests,
      }),
    )
    .sort(
      (a, b) =>
        b.requests - a.requests ||
        byName(a.client_name, b.client_name) ||
        byName(a.client_version, b.client_version),
    );
  return { data };
}

export function errorReport(rows: readonly ErrorCountRow[]): { data: ErrorCount[] } {
  const data = rows
    .map(
      (row): ErrorCount => ({
        error_type: row.errorType,
        client_name: row.clientName,
        status_code: row.statusCode,
        requests: row.requests,
      }),
    )
    .sort(
      (a, b) =>
        b.requests - a.requests ||
        byName(a.error_type, b.error_type) ||
        byName(a.client_name, b.client_name) ||
        a.status_code - b.status_code,
    );
  return { data };
}
