import { type ChSql, chSql } from '../analytics/clickhouse-sql';
import { chCreatedBetween } from '../analytics/clickhouse-table';
import type { RequestLogSearchQuery } from './search-filter';

/**
 * The conditions of a checked search (18.16: no server-side parameters, so every value is
 * formatted by chSql; see chWhere). Milliseconds are compared on created_at_ms, never on the
 * whole-second DateTime, which bounds the table's key as well (chCreatedBetween). uuids arrive
 * lowercased, as the ledger stores them.
 */
export function requestLogSearchConditions(query: RequestLogSearchQuery): (ChSql | null)[] {
  return [
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
    ...chCreatedBetween(query.from, query.to),
  ];
}

/**
 * The column a search sorts by, descending with ties by id descending (unpriced, NULL, costs
 * last); null for created_at, the log's own newest-first order (ClickHouseLogTable.page).
 */
export function requestLogSortColumn(query: RequestLogSearchQuery): 'cost_usd' | 'latency_ms' | null {
  return query.sortBy === 'created_at' ? null : query.sortBy;
}
