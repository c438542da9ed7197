import type { AnalyticsStoreOptions } from '../analytics/target';
import { createClickHouseRequestLogStore } from './clickhouse-store';
import type { RequestLogStore } from './port';
import { createPostgresRequestLogStore } from './postgres-store';

export { type BatchingWriterOptions, createBatchingLedgerWriter, type LedgerWriter } from './batching-writer';
export {
  type ClickHouseRequestLogStoreOptions,
  createClickHouseRequestLogStore,
  ensureRequestLogTable,
  REQUEST_LOG_TABLE,
} from './clickhouse-store';
export { costUsd, type TokenPrices, type TokenWeights, weightedTokens } from './cost';
export {
  type CostFilter,
  DEFAULT_REQUEST_LOG_LIMIT,
  type RequestLogFilter,
  type RequestLogStore,
} from './port';
export { createPostgresRequestLogStore } from './postgres-store';
export { REQUEST_LOG_ENDPOINTS, type RequestLogEndpoint, type RequestLogRecord } from './record';

export type RequestLogStoreOptions = AnalyticsStoreOptions;

/** The request log: ClickHouse when configured, otherwise the Postgres `request_logs` table. */
export function createRequestLogStore(options: RequestLogStoreOptions): RequestLogStore {
  const { clickhouse } = options;
  if (clickhouse) {
    return createClickHouseRequestLogStore(clickhouse.client, {
      database: clickhouse.database,
      ensureDatabase: clickhouse.ensureDatabase,
    });
  }
  return createPostgresRequestLogStore(options.db);
}
