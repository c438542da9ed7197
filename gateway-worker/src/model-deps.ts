import type { StoreEnv } from '@sluice/shared/config';
import type { QueryDb } from '@sluice/shared/db';
import { storeMarker } from '@sluice/shared/db/repos';
import type { UsageDeps, WarmCaches } from '@sluice/shared/gateway';
import {
  budgetThresholdsOf,
  budgetWebhookOf,
  createBudgetAlerts,
  createCounterAnchor,
  createGate,
  createLimiter,
  createRouteCaps,
  createSlidingWindowLimiter,
  createTokenTally,
  EPOCH_KEY,
} from '@sluice/shared/limits';
import type { AnalyticsStore } from '@sluice/shared/logs/analytics';
import type { Logger } from '@sluice/shared/logs/server';
import type { MetricsStore } from '@sluice/shared/metrics';
import { createDropReporter, exchangeSamples, refusalSamples } from '@sluice/shared/metrics';
import { providerAdapters } from '@sluice/shared/providers';
import type { ProxyDeps } from '@sluice/shared/proxy';
import {
  createReasoningSeal,
  createResponseCache,
  proxySettingsOf,
  tokenSettler,
} from '@sluice/shared/proxy';
import { benchPolicyOf, createRouteHealth, createRouteLatency } from '@sluice/shared/routing';
import { ANALYTICS_LOG_BATCH, createBatchingLedgerWriter } from '@sluice/shared/runtime';
import { sealedValueOpener } from '@sluice/shared/secrets';
import { detached } from '@sluice/shared/util';
import { wireFormats } from '@sluice/shared/wire';
import { runtimeByteChannel } from './runtime-byte-channel';
import type { StoreLink } from './store-link';

/** The model endpoints' ports and /v1/usage's, built once per isolate. */
export function buildModelDeps(
  config: StoreEnv,
  { link, db }: { link: StoreLink; db: QueryDb },
  warm: WarmCaches,
  logs: Pick<AnalyticsStore, 'requests' | 'mcpCalls'>,
  metrics: MetricsStore,
  log: Logger,
): { proxy: ProxyDeps; usage: UsageDeps } {
  const warn = (message: string, fields: Record<string, unknown> = {}) => log.warn(message, fields);
  const requestLog = logs.requests;
  // ClickHouse down: failed rows are retried with the next batch, the overflow is counted.
  const drops = createDropReporter(metrics, 'request', warn);
  const ledger = createBatchingLedgerWriter(requestLog, {
    ...ANALYTICS_LOG_BATCH,
    onError: (error, records) =>
      warn('request log write failed', { error: String(error), records: records.length }),
    onDrop: drops.onDrop,
  });
  const tally = createTokenTally(link.writeBehind, (error, lostTokens) =>
    warn('tokens not counted on limits', { error, lostTokens }),
  );
  const anchorCounters = createCounterAnchor(
    {
      redis: link.redis,
      log: requestLog,
      marker: storeMarker(db, 'redis_epoch'),
      delayMs: 0,
      tools: { log: logs.mcpCalls, limitsOf: (subject) => warm.limits(subject, detached) },
    },
    config.SLUICE_DB_TIMEOUT_MS,
    {
      onRebuilt: (outcome) =>
        warn('Redis lost its data: limit counters rebuilt from the request log', outcome),
    },
  );
  const reveal = sealedValueOpener(config.SLUICE_ENCRYPTION_KEY, config.SLUICE_STORE_TIMEOUT_MS);
  const proxy: ProxyDeps = {
    fetch: (input, init) => fetch(input, init),
    formats: wireFormats,
    providers: providerAdapters,
    resolveModel: (name, background) => warm.model(name, background),
    revealProviderKey: reveal,
    seal: createReasoningSeal(config.SLUICE_ENCRYPTION_KEY),
    byteChannel: runtimeByteChannel(),
    gate: createGate({
      run: (call, keepAlive, timer) => link.scripts.run(call, keepAlive, timer),
      board: link.board,
      limitsOf: (subject, background) => warm.limits(subject, background),
      // Refusals are counted by label; the samples join the next write-behind flush.
      onRefusal: (label) => void metrics.record(refusalSamples(label)),
      warn,
      // Redis lost its counters: rebuilt from the request log before anything counts again.
      anchorCounters,
    }),
    routeCaps: createRouteCaps(createSlidingWindowLimiter((call) => link.scripts.run(call))),
    budgetAlerts: createBudgetAlerts({
      redis: link.redis,
      logger: log,
      webhook: async () => budgetWebhookOf(await warm.settings(detached), reveal),
      fetch: (input, init) => fetch(input, init),
      now: () => Date.now(),
    }),
    routeLatency: createRouteLatency(),
    routeHealth: createRouteHealth({
      redis: link.redis,
      writeBehind: link.writeBehind,
      part: link.board.part('health'),
      policy: benchPolicyOf(config),
      timeoutMs: config.SLUICE_STORE_TIMEOUT_MS,
      onError: (what, error) => warn(`${what} unavailable`, { error: String(error) }),
    }),
    countTokens: tokenSettler(warm, tally),
    cache: createResponseCache(link.writeBehind, (error) => warn('response cache write failed', { error })),
    // The request-log row is also what the metrics count (tokens, cache hits, upstream latency).
    // Settles when the row is stored (its batch written), for the trace's log-write span.
    writeLog: (record, keepAlive) => {
      void metrics.recordLater(() => exchangeSamples(record), keepAlive);
      return ledger.write(record, keepAlive);
    },
    settings: async (background) => proxySettingsOf(await warm.settings(background), config),
    now: () => Date.now(),
    warn,
  };
  // GET /v1/usage reads the counters as they stand, with current definitions.
  const limiter = createLimiter({
    redis: link.redis,
    limitsOf: async (subject) => {
      await link.board.refresh();
      return warm.limits(subject, detached);
    },
    timeoutMs: config.SLUICE_STORE_TIMEOUT_MS,
    warn,
  });
  const usage: UsageDeps = {
    // Nor are they read before: GET /v1/usage after a loss waits for the same rebuild.
    readUsage: async (subject, nowMs) => {
      if ((await link.redis.exists(EPOCH_KEY)) === 0)
        await anchorCounters().catch((error: unknown) =>
          warn('limit counters not rebuilt', { error: String(error) }),
        );
      return limiter.readUsage(subject, nowMs);
    },
    thresholds: async () => budgetThresholdsOf(await warm.settings(detached)),
    usageSince: (filter) => requestLog.usageSince(filter),
    now: () => Date.now(),
    warn,
  };
  return { proxy, usage };
}
