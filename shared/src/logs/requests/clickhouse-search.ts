import { type ChSql, chJoin, chSql } from '../analytics/clickhouse-sql';
import type { RequestLogSearchQuery } from './search-filter';

/** The two statements of one search page: the rows, and the count of every match. */
export interface RequestLogSearchSql {
  rows: ChSql;
  count: ChSql;
}

/**
 * SQL for a checked search over `table` (18.16: no server-side parameters, so every value is
 * formatted by chSql). `columns` is the select list the caller maps rows back from.
 */
export function requestLogSearchSql(
  table: ChSql,
  columns: ChSql,
  query: RequestLogSearchQuery,
): RequestLogSearchSql {
  const where = whereOf(query);
  return {
    rows: chSql`SELECT ${columns} FROM ${table} ${where}
      ${orderOf(query)} LIMIT ${query.offset}, ${query.limit}`,
    count: chSql`SELECT count() AS total FROM ${table} ${where}`,
  };
}

/**
 * WHERE for a checked search; milliseconds are compared on created_at_ms, never on the
 * whole-second DateTime. uuids arrive lowercased, as the ledger stores them.
 */
function whereOf(query: RequestLogSearchQuery): ChSql {
  const conditions = [
    query.model === undefined ? null : chSql`model = ${query.model}`,
    query.provider === undefined ? null : chSql`provider = ${query.provider}`,
    query.userId === undefined ? null : chSql`user_id = ${query.userId}`,
    query.apiKeyId === undefined ? null : chSql`api_key_id = ${query.apiKeyId}`,
    query.status === undefined
      ? null
      : chSql`status_code >= ${query.status.min} AND status_code <= ${query.status.max}`,
    query.unpriced === undefined ? null : chSql`unpriced = ${query.unpriced ? 1 : 0}`,
    query.clientName === undefined ? null : chSql`client_name = ${query.clientName}`,
    query.errorType === undefined ? null : chSql`error_type = ${query.errorType}`,
    // created_at_ms is unsigned: a bound before 1970 is the same as no lower bound.
    query.from === undefined ? null : chSql`created_at_ms >= ${Math.max(0, query.from.getTime())}`,
    query.to === undefined ? null : chSql`created_at_ms <= ${query.to.getTime()}`,
  ].filter((condition): condition is ChSql => condition !== null);
  return conditions.length === 0 ? chSql`` : chSql`WHERE ${chJoin(conditions, chSql` AND `)}`;
}

/** Always descending; the id breaks ties so paging is stable; unpriced (NULL) costs go last. */
function orderOf(query: RequestLogSearchQuery): ChSql {
  if (query.sortBy === 'cost_usd') return chSql`ORDER BY cost_usd DESC NULLS LAST, id DESC`;
  if (query.sortBy === 'latency_ms') return chSql`ORDER BY latency_ms DESC, id DESC`;
  return chSql`ORDER BY created_at_ms DESC, id DESC`;
}
