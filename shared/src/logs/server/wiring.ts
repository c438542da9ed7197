import {
  ANALYTICS_LOG_BATCH,
  createBatchingLedgerWriter,
  type KeepAlive,
} from '../../stores/batching-writer';
import type { AnalyticsStore } from '../analytics/store';
import { createLogger, errorText, type Logger, logLevelFromEnv } from './logger';
import type { AccessLogRecord, AccessLogStore, AppLogSource, AppLogStore } from './records';

export interface ServerLogs {
  accessLogs: AccessLogStore;
  appLogs: AppLogStore;
  /** Root logger, targeted at the server's name; modules take logger.child('<module>'). */
  logger: Logger;
  /**
   * Batches access records (one insert per batch); never rejects. A batch this call opens is
   * handed to `keepAlive` (waitUntil on workerd), see ledger/batching-writer.ts.
   */
  recordAccess(record: AccessLogRecord, keepAlive?: KeepAlive): Promise<void>;
  /** Resolves once every access record and log line written so far is stored (or given up). */
  flushLogs(): Promise<void>;
}

/**
 * Both servers' logs, built once: the access and app stores of the analytics store, a logger at SLUICE_LOG_LEVEL (default INFO) and a batching access-log writer.
 * A failed access-log batch is reported through the logger (an app-log line, printed too);
 * a failed app-log batch is only printed, so nothing loops.
 */
export function buildServerLogs(
  source: AppLogSource,
  env: Record<string, unknown>,
  stores: Pick<AnalyticsStore, 'access' | 'app'>,
  /** Counts records the store never got (the gateway's sluice_analytics_dropped_records_total). */
  countDropped?: (log: 'access' | 'app', count: number) => void,
): ServerLogs {
  const { access: accessLogs, app: appLogs } = stores;
  const logger = createLogger({
    source,
    target: source,
    store: appLogs,
    minLevel: logLevelFromEnv(env),
    onDrop: (count) => countDropped?.('app', count),
  });
  const serverLogs = logger.child('server-logs');
  const access = createBatchingLedgerWriter<AccessLogRecord>(accessLogs, {
    ...ANALYTICS_LOG_BATCH,
    onError: (error, records) =>
      serverLogs.warn('access log write failed', { error: errorText(error), records: records.length }),
    onDrop: (count, error) => {
      serverLogs.warn('analytics records dropped', {
        log: 'access',
        dropped: count,
        error: errorText(error),
      });
      countDropped?.('access', count);
    },
  });
  const inFlight = new Set<Promise<void>>();
  const recordAccess = (record: AccessLogRecord, keepAlive?: KeepAlive) => {
    const written = access.write(record, keepAlive);
    // Once per batch (by the writer that opened it): on workerd, a promise derived from another
    // request's batch in every request would be settled from a request that is not its own.
    if (!inFlight.has(written)) {
      inFlight.add(written);
      void written.finally(() => inFlight.delete(written));
    }
    return written;
  };
  const flushLogs = async () => {
    await Promise.all([...inFlight]);
    await logger.flush();
  };
  return { accessLogs, appLogs, logger, recordAccess, flushLogs };
}
