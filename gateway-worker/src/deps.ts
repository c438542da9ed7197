import { createAnalyticsStore } from '@sluice/shared/analytics/store';
import { clickhouseTargetFor } from '@sluice/shared/analytics/target';
import { createJwtSigner } from '@sluice/shared/auth/jwt';
import { parseStoreEnv } from '@sluice/shared/config/env';
import { findApiKeyForAuth } from '@sluice/shared/db/repos/api-keys-repo';
import { loadSettings } from '@sluice/shared/db/repos/settings-repo';
import { createKeyAuthCache } from '@sluice/shared/keys/auth-cache';
import { disableInactiveKey } from '@sluice/shared/keys/lifecycle-jobs';
import { createKeyUseRecorder } from '@sluice/shared/keys/usage';
import { droppedSamples } from '@sluice/shared/metrics/samples';
import { createRedisMetricsStore } from '@sluice/shared/metrics/store';
import { buildServerLogs } from '@sluice/shared/server-logs/wiring';
import { createSettingsReader } from '@sluice/shared/settings/settings-cache';
import { configureNeon, createHttpDb } from '@sluice/shared/stores/neon';
import { createUpstash } from '@sluice/shared/stores/upstash';
import { buildMcpDeps } from './mcp-deps';
import { buildModelDeps } from './model-deps';
import type { GatewayBindings, GatewayDeps } from './types';

/** Builds the gateway's dependencies from its bindings; the worker calls it once per isolate. */
export function buildDeps(env: GatewayBindings): GatewayDeps {
  const config = parseStoreEnv(env);
  configureNeon({ wsProxy: config.NEON_LOCAL_WS_PROXY, httpEndpoint: config.NEON_LOCAL_HTTP });
  const db = createHttpDb(config.DATABASE_URL);
  const redis = createUpstash({
    url: config.UPSTASH_REDIS_REST_URL,
    token: config.UPSTASH_REDIS_REST_TOKEN,
    timeoutMs: config.SLUICE_STORE_TIMEOUT_MS,
  });
  // Redis in front of Postgres for every key lookup; the console invalidates on each change.
  const keyCache = createKeyAuthCache(redis, (hash) => findApiKeyForAuth(db, hash));
  // One analytics store for every log this isolate writes: ClickHouse when configured, else Postgres.
  const analytics = createAnalyticsStore({ db, clickhouse: clickhouseTargetFor(config) });
  const { logger, recordAccess } = buildServerLogs(
    'gateway',
    env,
    analytics,
    (log, count) =>
      // Rides on the isolate's next metrics flush; a lost count is not worth a round trip.
      void metrics.record(droppedSamples(log, count)),
  );
  const metrics = createRedisMetricsStore(redis, {
    key: config.SLUICE_METRICS_KEY,
    onError: (error, lost) => logger.child('metrics').warn('samples lost', { lost, error: String(error) }),
  });
  const settings = createSettingsReader({
    load: () => loadSettings(db),
    redis,
    onError: (e) => logger.child('settings').warn('settings', { error: String(e) }),
  });
  return {
    db,
    redis,
    auth: {
      findKeyByHash: (hash, background) => keyCache.find(hash, background),
      jwt: createJwtSigner(config.SLUICE_JWT_SECRET),
      now: () => new Date(),
      disableInactiveKey: (keyId, now) => disableInactiveKey({ db, redis }, keyId, now),
      recordKeyUse: createKeyUseRecorder({ db, redis }),
    },
    ...buildModelDeps(config, db, redis, settings, analytics.requests, metrics, logger.child('proxy')),
    mcp: buildMcpDeps(config, db, redis, settings, analytics.mcpCalls, metrics, logger.child('mcp')),
    metrics,
    storeTimeoutMs: config.SLUICE_STORE_TIMEOUT_MS,
    logger,
    recordAccess,
  };
}
