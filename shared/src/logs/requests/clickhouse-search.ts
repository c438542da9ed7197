import { chSql } from '../analytics/clickhouse-sql';
import type { ChLogFilter } from '../analytics/clickhouse-table';
import type { RequestLogSearchQuery } from './search-filter';

/**
 * The conditions and range of a checked search (18.16: no server-side parameters, so every value
 * is formatted by chSql; see chWhere). The range is compared to the millisecond on created_at_ms
 * and bounds the table's key as well (chCreatedBetween). uuids arrive lowercased, as the ledger
 * stores them.
 */
export function requestLogSearchFilter(query: RequestLogSearchQuery): ChLogFilter {
  const where = [
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
  ];
  return { where, from: query.from, to: query.to };
}

/**
 * The column a search sorts by, descending with ties by id descending (unpriced, NULL, costs
 * last); null for created_at, the log's own newest-first order (ClickHouseLogTable.page).
 */
export function requestLogSortColumn(query: RequestLogSearchQuery): 'cost_usd' | 'latency_ms' | null {
  return query.sortBy === 'created_at' ? null : query.sortBy;
}
