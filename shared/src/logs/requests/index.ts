export {
  type BatchingWriterOptions,
  createBatchingLedgerWriter,
  type LedgerWriter,
} from '../../runtime/batching-writer';
export {
  MAX_USAGE_RANGE_MS,
  USAGE_GROUP_BYS,
  type UsageAggregateQuery,
  type UsageGroupBy,
} from './aggregate-query';
export { type ClickHouseRequestLogStoreOptions, createClickHouseRequestLogStore } from './clickhouse-store';
export { costUsd, type TokenPrices, type TokenWeights, weightedTokens } from './cost';
export { REQUEST_LOG_TABLE, requestLogSchema } from './log-columns';
export type { RequestLogSearch } from './port';
export {
  DEFAULT_REQUEST_LOG_LIMIT,
  type LoggedUsage,
  type RequestLogFilter,
  type RequestLogStore,
  type UsageSinceFilter,
} from './port';
export { createPostgresRequestLogStore } from './postgres-store';
export { REQUEST_LOG_ENDPOINTS, type RequestLogEndpoint, type RequestLogRecord } from './record';
export { MAX_REQUEST_LOG_SEARCH_LIMIT, REQUEST_LOG_SORTS } from './search-filter';
