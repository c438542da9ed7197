import { createKeyAuthCache } from '@sluice/shared/auth/api-keys';
import { createJwtSigner } from '@sluice/shared/auth/console';
import { createMcpAccessTokens, revokedGrantKey } from '@sluice/shared/auth/oauth';
import { parseStoreEnv } from '@sluice/shared/config';
import { findApiKeyForAuth } from '@sluice/shared/db/repos';
import { createWarmCaches } from '@sluice/shared/gateway';
import { createKeyUseRecorder, disableInactiveKey } from '@sluice/shared/keys';
import { clickhouseTargetFor, createAnalyticsStore } from '@sluice/shared/logs/analytics';
import { buildServerLogs } from '@sluice/shared/logs/server';
import { originPolicyFrom } from '@sluice/shared/mcp/gateway';
import { createRedisMetricsStore, droppedSamples } from '@sluice/shared/metrics';
import { configureSseLimits } from '@sluice/shared/sse';
import { configureNeon, createHttpDb } from '@sluice/shared/stores';
import { buildMcpDeps } from './mcp-deps';
import { buildModelDeps } from './model-deps';
import { linkedHotRedis } from './redis-link-client';
import { buildStoreLink, type StoreLinkReport } from './store-link';
import { buildTracing } from './tracing-deps';
import type { GatewayBindings, GatewayDeps } from './types';

const CLICKHOUSE_INSERT_TIMEOUT_MS = 20_000;

/** Builds the gateway's dependencies from its bindings; the worker calls it once per isolate. */
export function buildDeps(env: GatewayBindings): GatewayDeps {
  const config = parseStoreEnv(env);
  configureNeon({ httpEndpoint: config.NEON_LOCAL_HTTP });
  configureSseLimits({ maxEventChars: config.SLUICE_MAX_STREAM_EVENT_BYTES });
  const db = createHttpDb(config.DATABASE_URL);
  const storeReport: StoreLinkReport = {
    failed: (what, error) => logger.child(what).warn('store call failed', { error: String(error) }),
    breaker: (open, error) =>
      open
        ? logger.child('redis').warn('Redis unreachable: proceeding without it until a probe answers', {
            error: String(error),
          })
        : logger.child('redis').info('Redis answers again: limits and caches back in use'),
  };
  const link = buildStoreLink(config, storeReport, linkedHotRedis(env));
  const { redis } = link;
  // One analytics store for every log this isolate writes: ClickHouse when configured, else Postgres.
  // Below workerd's 30 s allowance for waitUntil: a blackholed ClickHouse must not outlast it,
  // or the batch would be cut off before it reached the Postgres spill.
  const analytics = createAnalyticsStore({
    db,
    clickhouse: clickhouseTargetFor(config, CLICKHOUSE_INSERT_TIMEOUT_MS),
    onClickHouseChange: (open, error) =>
      open
        ? logger.child('clickhouse').warn('ClickHouse unreachable: log rows wait in Postgres', {
            error: String(error),
          })
        : logger.child('clickhouse').info('ClickHouse answers again: log rows go to it'),
  });
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
    writeBehind: link.writeBehind,
    onError: (error, lost) => logger.child('metrics').warn('samples lost', { lost, error: String(error) }),
  });
  // Keys, routes, settings, limits and the MCP catalog, kept in the isolate (Redis key cache
  // in front of Postgres for key records; the console invalidates on each change).
  const keyCache = createKeyAuthCache(
    redis,
    (hash) => findApiKeyForAuth(db, hash),
    logger.child('key-cache'),
  );
  const warm = createWarmCaches({
    db,
    board: link.board,
    findKey: (hash, background) => keyCache.find(hash, background),
    loadWaitMs: config.SLUICE_DB_TIMEOUT_MS,
    onError: (part, error) =>
      logger.child('warm-cache').warn('reload failed', { part, error: String(error) }),
  });
  const tracing = buildTracing({
    env,
    encryptionKey: config.SLUICE_ENCRYPTION_KEY,
    warm,
    metrics,
    logger: logger.child('telemetry'),
  });
  const modelDeps = buildModelDeps(config, { link, db }, warm, analytics, metrics, logger.child('proxy'));
  modelDeps.proxy.traceContent = tracing.captureContent;
  return {
    db,
    redis,
    auth: {
      findKeyByHash: (hash, background) => warm.keyRecord(hash, background),
      // Paths without an admission read the versions before using a key record.
      refreshVersions: () => link.board.refresh(0),
      jwt: createJwtSigner(config.SLUICE_JWT_SECRET),
      now: () => new Date(),
      disableInactiveKey: (keyId, now) => disableInactiveKey({ db, redis, logger }, keyId, now),
      recordKeyUse: createKeyUseRecorder({ db, redis }),
    },
    ...modelDeps,
    // A request with a key read the versions while authenticating; one with a JWT reads them
    // here, at most once a second, as /mcp does.
    servableModels: async (background) => {
      await link.board.refresh();
      return warm.servableModels(background);
    },
    mcp: buildMcpDeps(config, { link, db }, warm, analytics.mcpCalls, metrics, logger.child('mcp')),
    mcpOAuth: {
      issuer: config.SLUICE_CONSOLE_URL?.replace(/\/+$/, '') ?? null,
      gatewayUrl: config.SLUICE_GATEWAY_URL?.replace(/\/+$/, '') ?? null,
      tokens: createMcpAccessTokens(config.SLUICE_JWT_SECRET),
      isRevoked: async (grantId) => (await redis.get(revokedGrantKey(grantId))) !== null,
    },
    mcpOrigins: originPolicyFrom(config.SLUICE_MCP_ALLOWED_HOSTS, config.SLUICE_MCP_ALLOWED_ORIGINS),
    metrics,
    tracer: tracing.tracer,
    refreshTracing: tracing.refresh,
    storeTimeoutMs: config.SLUICE_STORE_TIMEOUT_MS,
    bodyTimeoutMs: config.SLUICE_BODY_TIMEOUT_MS,
    logger,
    recordAccess,
  };
}
