import { createSecretBox, type SecretBox } from '@sluice/shared/auth/secret-box';
import type { StoreEnv } from '@sluice/shared/config/env';
import type { Db } from '@sluice/shared/db/types';
import type { UsageDeps } from '@sluice/shared/gateway/usage';
import { createBatchingLedgerWriter } from '@sluice/shared/ledger/batching-writer';
import type { RequestLogStore } from '@sluice/shared/ledger/port';
import { createLimiter } from '@sluice/shared/limits/limiter';
import { createLimitsCache } from '@sluice/shared/limits/limits-cache';
import { createRouteCaps } from '@sluice/shared/limits/route-caps';
import { createSlidingWindowLimiter } from '@sluice/shared/limits/sliding-window';
import { createDropReporter } from '@sluice/shared/metrics/dropped';
import { exchangeSamples, refusalSamples } from '@sluice/shared/metrics/samples';
import type { MetricsStore } from '@sluice/shared/metrics/store';
import { createPriceTableCache } from '@sluice/shared/pricing/price-cache';
import { googleBedrockProviders } from '@sluice/shared/providers/registry-google-bedrock';
import { openAiAnthropicAdapters } from '@sluice/shared/providers/registry-openai-anthropic';
import { createResponseCache } from '@sluice/shared/proxy/response-cache';
import type { ProxyDeps } from '@sluice/shared/proxy/types';
import { resolveModelRoutes } from '@sluice/shared/routing/resolve';
import { createCachedResolver } from '@sluice/shared/routing/route-cache';
import type { Logger } from '@sluice/shared/server-logs/logger';
import type { SettingsReader } from '@sluice/shared/settings/settings-cache';
import { wireFormats } from '@sluice/shared/wire/index';
import type { Redis } from '@upstash/redis';

/** Opens each sealed provider key once per isolate; a rotated key is a new sealed value. */
function providerKeyOpener(encryptionKey: string): (sealed: string) => Promise<string> {
  let secretBox: Promise<SecretBox> | undefined;
  const opened = new Map<string, Promise<string>>();
  return (sealed) => {
    let value = opened.get(sealed);
    if (!value) {
      secretBox ??= createSecretBox(encryptionKey);
      value = secretBox.then((box) => box.decrypt(sealed));
      if (opened.size >= 1000) opened.clear();
      opened.set(sealed, value);
      value.catch(() => opened.delete(sealed));
    }
    return value;
  };
}

/** The model endpoints' ports and /v1/usage's, built once per isolate. */
export function buildModelDeps(
  config: StoreEnv,
  db: Db,
  redis: Redis,
  settings: SettingsReader,
  requestLog: RequestLogStore,
  metrics: MetricsStore,
  log: Logger,
): { proxy: ProxyDeps; usage: UsageDeps } {
  const warn = (message: string, fields: Record<string, unknown> = {}) => log.warn(message, fields);
  // ClickHouse down: failed rows are retried with the next batch, the overflow is counted.
  const drops = createDropReporter(metrics, 'request', warn);
  const ledger = createBatchingLedgerWriter(requestLog, {
    onError: (error, records) =>
      warn('request log write failed', { error: String(error), records: records.length }),
    onDrop: drops.onDrop,
  });
  const limiter = createLimiter({
    redis,
    limitsOf: createLimitsCache({ db, redis }),
    timeoutMs: config.SLUICE_STORE_TIMEOUT_MS,
    warn,
  });
  // Routes carry their price-table entry from resolution: no per-request price lookup.
  const prices = createPriceTableCache({ db, redis });
  const proxy: ProxyDeps = {
    fetch: (input, init) => fetch(input, init),
    formats: wireFormats,
    providers: { ...openAiAnthropicAdapters, ...googleBedrockProviders },
    resolveModel: createCachedResolver({ resolve: (name) => resolveModelRoutes(db, name, prices), redis }),
    revealProviderKey: providerKeyOpener(config.SLUICE_ENCRYPTION_KEY),
    routeCaps: createRouteCaps(createSlidingWindowLimiter(redis)),
    limiter: {
      addTokens: (subject, tokens, nowMs) => limiter.addTokens(subject, tokens, nowMs),
      // Refusals are counted by label; the batch joins the request's own metrics flush.
      admit: async (subject, nowMs, options) => {
        const admission = await limiter.admit(subject, nowMs, options);
        if (!admission.ok) void metrics.record(refusalSamples(admission.label));
        return admission;
      },
    },
    cache: createResponseCache(redis),
    // The request-log row is also what the metrics count (tokens, cache hits, upstream latency).
    writeLog: async (record) => {
      await Promise.all([ledger.write(record), metrics.record(exchangeSamples(record))]);
      await drops.settled();
    },
    settings: async () => {
      const values = await settings.get();
      return {
        cacheTtlSeconds: values.cache_ttl_seconds,
        upstreamTimeoutMs: values.upstream_timeout_seconds * 1000,
        rateLimitFailClosed: values.rate_limit_fail_closed,
      };
    },
    now: () => Date.now(),
    warn,
  };
  const usage: UsageDeps = {
    readUsage: (subject, nowMs) => limiter.readUsage(subject, nowMs),
    costSince: (filter) => requestLog.costSince(filter),
    now: () => Date.now(),
    warn,
  };
  return { proxy, usage };
}
