import type { ClickHouseClient } from '@clickhouse/client-web';
import type { Db } from '../db/types';
import { createClickHouseRequestLogStore } from './clickhouse-store';
import type { RequestLogStore } from './port';
import { createPostgresRequestLogStore } from './postgres-store';
import type { RequestLogRecord } from './record';

export {
  type ClickHouseRequestLogStoreOptions,
  createClickHouseRequestLogStore,
  ensureRequestLogTable,
  REQUEST_LOG_TABLE,
} from './clickhouse-store';
export { costUsd, type TokenPrices, type TokenWeights, weightedTokens } from './cost';
export { DEFAULT_REQUEST_LOG_LIMIT, type RequestLogFilter, type RequestLogStore } from './port';
export { createPostgresRequestLogStore } from './postgres-store';
export { REQUEST_LOG_ENDPOINTS, type RequestLogEndpoint, type RequestLogRecord } from './record';

export interface RequestLogStoreOptions {
  db: Db;
  /** When given, the request log lives in ClickHouse instead of Postgres. */
  clickhouse?: {
    client: ClickHouseClient;
    database: string;
    /** Creates the database before the table (see ensureClickHouseDatabase). */
    ensureDatabase?: () => Promise<void>;
  } | null;
}

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

export interface LedgerWriter {
  /** Stores one record; never rejects (failures go to onError). Hand it to waitUntil. */
  write(record: RequestLogRecord): Promise<void>;
}

export interface LedgerWriterOptions {
  onError(error: unknown, record: RequestLogRecord): void;
}

export function createLedgerWriter(store: RequestLogStore, options: LedgerWriterOptions): LedgerWriter {
  return {
    async write(record) {
      try {
        await store.insert([record]);
      } catch (error) {
        try {
          options.onError(error, record);
        } catch {
          // A failing error handler must not turn into an unhandled rejection in waitUntil.
        }
      }
    },
  };
}
