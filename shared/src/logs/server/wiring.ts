import { ANALYTICS_LOG_BATCH, createBatchingLedgerWriter } from '../../runtime/batching-writer';
import type { Background } from '../../util/background';
import type { AnalyticsStore } from '../analytics/store';
import { createLogger, errorText, type Logger, logLevelFromEnv } from './logger';
import {
  type AccessLogRecord,
  type AccessLogStore,
  type AppLogSource,
  type AppLogStore,
  CONSOLE_PORT,
  GATEWAY_PORT,
  MAX_PORT,
  MIN_PORT,
} from './records';

export interface ServerLogs {
  accessLogs: AccessLogStore;
  appLogs: AppLogStore;
  /** Root logger, targeted at the server's name; modules take logger.child('<module>'). */
  logger: Logger;
  /** The port access records carry: the one this server listens on (listeningPort). */
  port: number;
  /**
   * Batches access records (one insert per batch); never rejects. A batch this call opens is
   * handed to `keepAlive` (waitUntil on workerd), see ledger/batching-writer.ts.
   */
  recordAccess(record: AccessLogRecord, keepAlive?: Background): Promise<void>;
  /** Resolves once every access record and log line written so far is stored (or given up). */
  flushLogs(): Promise<void>;
}

/** Where each server's listening port is configured; npm start and npm run serve pass both. */
const PORT_VARIABLES: Readonly<Record<AppLogSource, string>> = {
  gateway: 'SLUICE_GATEWAY_PORT',
  console: 'SLUICE_CONSOLE_PORT',
};
const DEFAULT_PORTS: Readonly<Record<AppLogSource, number>> = {
  gateway: GATEWAY_PORT,
  console: CONSOLE_PORT,
};

/**
 * The port a server listens on: SLUICE_GATEWAY_PORT or SLUICE_CONSOLE_PORT as the stack gives
 * them to the apps (self-host/app-env.ts), else the default (3000, 3001: also what a gateway on
 * Cloudflare, which has no port of its own, reports). A value that is not a port is refused.
 */
export function listeningPort(source: AppLogSource, env: Record<string, unknown>): number {
  const name = PORT_VARIABLES[source];
  const value = env[name];
  if (value === undefined || value === '') return DEFAULT_PORTS[source];
  const port = Number(value);
  if (!Number.isInteger(port) || port < MIN_PORT || port > MAX_PORT) {
    throw new Error(`Invalid configuration: ${name} must be a port (${MIN_PORT}..${MAX_PORT})`);
  }
  return port;
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
  const port = listeningPort(source, env);
  const inFlight = new Set<Promise<void>>();
  // The server and its port are this process's, whatever the caller's record says: a request
  // cannot tell which port its server listens on behind a proxy, and workerd never says.
  const recordAccess = (record: AccessLogRecord, keepAlive?: Background) => {
    const written = access.write({ ...record, source, port }, keepAlive);
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
  // The first line of each process (console) or isolate (gateway): a healthy stack logs little
  // else, and an app log without it looked broken. On workerd this runs inside the first
  // request, whose background work flushes the logger.
  logger.child('server').info(source === 'gateway' ? 'gateway isolate started' : 'console started', {
    port,
    log_level: logLevelFromEnv(env),
  });
  return { accessLogs, appLogs, logger, port, recordAccess, flushLogs };
}
