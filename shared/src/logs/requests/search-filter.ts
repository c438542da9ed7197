import { statusRange } from '../status-match';
import { DEFAULT_REQUEST_LOG_LIMIT, type RequestLogSearch } from './port';

export { MAX_STATUS_CODE, MIN_STATUS_CODE } from '../status-match';
export const MAX_REQUEST_LOG_SEARCH_LIMIT = 200;
export const REQUEST_LOG_SORTS = ['created_at', 'cost_usd', 'latency_ms'] as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A search with its defaults applied and every value checked, the same for both adapters. */
export type RequestLogSearchQuery = Omit<RequestLogSearch, 'sortBy' | 'limit' | 'offset' | 'statusCode'> &
  Required<Pick<RequestLogSearch, 'sortBy' | 'limit' | 'offset'>> & {
    /** The status match as the inclusive range of codes it covers. */
    status?: { min: number; max: number };
  };

/**
 * Validates a search (RangeError on a bad value) and applies the defaults. The HTTP layer
 * validates first; this guards other callers and keeps the two adapters answering alike
 * (Postgres would reject a malformed uuid or an out-of-range integer, ClickHouse would just
 * match nothing). UUIDs come back lowercased: ClickHouse compares them as text, and the ledger
 * stores them as Postgres returns them (lowercase).
 */
export function requestLogSearchQuery(filter: RequestLogSearch): RequestLogSearchQuery {
  const limit = filter.limit ?? DEFAULT_REQUEST_LOG_LIMIT;
  const offset = filter.offset ?? 0;
  const sortBy = filter.sortBy ?? 'created_at';
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_REQUEST_LOG_SEARCH_LIMIT) {
    throw new RangeError(`invalid limit ${limit} (1..${MAX_REQUEST_LOG_SEARCH_LIMIT})`);
  }
  if (!Number.isSafeInteger(offset) || offset < 0) throw new RangeError(`invalid offset ${offset}`);
  if (!REQUEST_LOG_SORTS.includes(sortBy)) throw new RangeError(`invalid sortBy ${String(sortBy)}`);
  const status = filter.statusCode === undefined ? undefined : statusRange(filter.statusCode);
  if (filter.unpriced !== undefined && typeof filter.unpriced !== 'boolean') {
    throw new RangeError('invalid unpriced');
  }
  checkText('model', filter.model);
  checkText('provider', filter.provider);
  checkText('clientName', filter.clientName);
  checkText('errorType', filter.errorType);
  checkDate('from', filter.from);
  checkDate('to', filter.to);
  if (filter.from && filter.to && filter.from.getTime() > filter.to.getTime()) {
    throw new RangeError('from is after to');
  }
  const { statusCode: _match, ...rest } = filter;
  return {
    ...rest,
    status,
    userId: lowerUuid('userId', filter.userId),
    apiKeyId: lowerUuid('apiKeyId', filter.apiKeyId),
    sortBy,
    limit,
    offset,
  };
}

function checkText(name: string, value: string | undefined): void {
  if (value !== undefined && typeof value !== 'string') throw new RangeError(`invalid ${name}`);
}

function lowerUuid(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !UUID.test(value)) throw new RangeError(`invalid ${name} ${value}`);
  return value.toLowerCase();
}

function checkDate(name: string, value: Date | undefined): void {
  if (value !== undefined && !(value instanceof Date && Number.isFinite(value.getTime()))) {
    throw new RangeError(`invalid ${name}`);
  }
}
