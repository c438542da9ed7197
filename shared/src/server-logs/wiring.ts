import type { AnalyticsStoreOptions } from '../analytics/target';
import { createBatchingLedgerWriter } from '../ledger/batching-writer';
import { createAccessLogStore, createAppLogStore } from './index';
import { createLogger, errorText, type Logger, logLevelFromEnv } from './logger';
import type { AccessLogRecord, AccessLogStore, AppLogSource, AppLogStore } from './records';

export interface ServerLogs {
  accessLogs: AccessLogStore;
  appLogs: AppLogStore;
  /** Root logger, targeted at the server's name; modules take logger.child('<module>'). */
  logger: Logger;
  /** Batches access records (one insert per batch); never rejects. */
  recordAccess(record: AccessLogRecord): Promise<void>;
}

/**
 * Both servers' logs, built once: the stores on the configured target (ClickHouse, else
 * Postgres), a logger at SLUICE_LOG_LEVEL (default INFO) and a batching access-log writer.
 * A failed access-log batch is reported through the logger (an app-log line, printed too);
 * a failed app-log batch is only printed, so nothing loops.
 */
export function buildServerLogs(
  source: AppLogSource,
  env: Record<string, unknown>,
  target: AnalyticsStoreOptions,
): ServerLogs {
  const accessLogs = createAccessLogStore(target);
  const appLogs = createAppLogStore(target);
  const logger = createLogger({ source, target: source, store: appLogs, minLevel: logLevelFromEnv(env) });
  const serverLogs = logger.child('server-logs');
  const access = createBatchingLedgerWriter<AccessLogRecord>(accessLogs, {
    onError: (error, records) =>
      serverLogs.warn('access log write failed', { error: errorText(error), records: records.length }),
  });
  return { accessLogs, appLogs, logger, recordAccess: (record) => access.write(record) };
}
