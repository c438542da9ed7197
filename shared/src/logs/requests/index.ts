export {
  type BatchingWriterOptions,
  createBatchingLedgerWriter,
  type LedgerWriter,
} from '../../runtime/batching-writer';
export { type ClickHouseRequestLogStoreOptions, createClickHouseRequestLogStore } from './clickhouse-store';
export { costUsd, type TokenPrices, type TokenWeights, weightedTokens } from './cost';
export { REQUEST_LOG_TABLE, requestLogSchema } from './log-columns';
export {
  DEFAULT_REQUEST_LOG_LIMIT,
  type LoggedUsage,
  type RequestLogFilter,
  type RequestLogStore,
  type UsageSinceFilter,
} from './port';
export { createPostgresRequestLogStore } from './postgres-store';
export { REQUEST_LOG_ENDPOINTS, type RequestLogEndpoint, type RequestLogRecord } from './record';
