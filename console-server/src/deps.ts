import { createJwtSigner } from '@sluice/shared/auth/console';
import { createMcpAccessTokens } from '@sluice/shared/auth/oauth';
import { createLoginGate } from '@sluice/shared/auth/sign-in';
import { loadStoredLimits } from '@sluice/shared/db/repos';
import { createFixedWindowCounter, createLimiter, subjectLimits } from '@sluice/shared/limits';
import {
  clickhouseTargetFor,
  createAnalyticsStore,
  createClickHouseAuditMirror,
} from '@sluice/shared/logs/analytics';
import type { Logger } from '@sluice/shared/logs/server';
import { buildServerLogs } from '@sluice/shared/logs/server';
import { createSdkConnector, generationAwareConnector } from '@sluice/shared/mcp/upstream';
import { createSecretBox } from '@sluice/shared/secrets';
import { createUpstash, pingClickHouse } from '@sluice/shared/stores';
import type { Tracer } from '@sluice/shared/telemetry';
import { tracerFor, tracingConfigFrom } from '@sluice/shared/telemetry';
import type { Redis } from '@upstash/redis';
import { type ConsoleConfig, parseConsoleEnv } from './config';
import { fetchClientDocument } from './oauth/server-deps';
import { argon2Passwords } from './passwords';
import { createPostgresPool } from './stores/postgres';
import { connectDirectRedis } from './stores/redis';
import { traceDbQueries } from './telemetry/db-spans';
import { activeSpan } from './telemetry/request-spans';
import type { ConsoleDeps } from './types';

/** Builds every console dependency once from the environment. */
export async function buildDeps(env: Record<string, unknown>): Promise<ConsoleDeps> {
  const config = parseConsoleEnv(env);
  const { db, pool } = createPostgresPool(config.DATABASE_URL, 10, config.SLUICE_DB_TIMEOUT_MS);
  const { redis, close: closeRedis } = consoleRedis(config);
  // Where the log stores read and write: one client and database shared by all of them.
  const logTarget = clickhouseTargetFor(config, config.SLUICE_STORE_TIMEOUT_MS);
  // Lazy: nothing reaches ClickHouse (tables created) until a log is first written or read.
  const analytics = createAnalyticsStore({ db, clickhouse: logTarget });
  // Uncached: an admin reading usage right after a change must see the new definitions.
  const limitsOf: ConsoleDeps['limitsOf'] = async (subject) =>
    subjectLimits(await loadStoredLimits(db, subject.keyId, subject.userId), subject);
  // Access and app logs of the console itself.
  const logs = buildServerLogs('console', env, analytics);
  const tracer = consoleTracer(env, logs.logger);
  if (tracer.enabled) traceDbQueries(pool, activeSpan, config.DATABASE_URL);
  return {
    db,
    pool,
    closeStores: async () => {
      closeRedis();
      await pool.end();
    },
    tracer,
    redis,
    jwt: createJwtSigner(config.SLUICE_JWT_SECRET),
    secrets: await createSecretBox(config.SLUICE_ENCRYPTION_KEY),
    passwords: argon2Passwords,
    loginAttempts: createLoginGate(redis, 'sluice:login'),
    setupCalls: createFixedWindowCounter(redis, 'sluice:setup-calls'),
    pingAnalytics: logTarget
      ? async () => {
          const result = await pingClickHouse(logTarget.client);
          if (!result.ok) throw new Error('clickhouse ping failed');
        }
      : null,
    drainLogSpill: () => analytics.drainSpill(),
    // Lazy: nothing reaches ClickHouse until the mirror job runs.
    auditMirror: logTarget ? createClickHouseAuditMirror(logTarget.client, logTarget) : null,
    limitsOf,
    limiter: createLimiter({
      redis,
      limitsOf,
      timeoutMs: config.SLUICE_STORE_TIMEOUT_MS,
      warn: (message, fields) => logs.logger.child('limits').warn(message, fields),
    }),
    // Discovery reaches servers of either protocol generation (stateless ones by server/discover).
    mcpConnector: generationAwareConnector(createSdkConnector()),
    mcpTimeoutMs: 15_000,
    mcpLogs: analytics.mcpCalls,
    // The gateway writes it; the console only searches it.
    requestLogs: analytics.requests,
    ...logs,
    storeTimeoutMs: config.SLUICE_STORE_TIMEOUT_MS,
    oauth: {
      issuer: config.SLUICE_CONSOLE_URL?.replace(/\/+$/, '') ?? null,
      gatewayUrl: config.SLUICE_GATEWAY_URL?.replace(/\/+$/, '') ?? null,
      tokens: createMcpAccessTokens(config.SLUICE_JWT_SECRET),
      fetchDocument: fetchClientDocument,
    },
    startedAt: Date.now(),
  };
}

/**
 * Redis as configured: REDIS_URL is Redis itself over one TCP connection (self-hosted: no hop
 * through the store bridge); otherwise Upstash's REST API (the Cloudflare deployment).
 */
function consoleRedis(config: ConsoleConfig): { redis: Redis; close(): void } {
  if (config.REDIS_URL) return connectDirectRedis(config.REDIS_URL, config.SLUICE_STORE_TIMEOUT_MS);
  const redis = createUpstash({
    // Both are present without REDIS_URL (consoleEnvSchema).
    url: config.UPSTASH_REDIS_REST_URL ?? '',
    token: config.UPSTASH_REDIS_REST_TOKEN ?? '',
    timeoutMs: config.SLUICE_STORE_TIMEOUT_MS,
  });
  return { redis, close: () => {} };
}

/** The resource the console's spans name (OTEL_SERVICE_NAME overrides the name). */
const CONSOLE_SERVICE = { serviceName: 'sluice-console', serviceVersion: '0.1.0' };

/** Traces as the OTEL_* variables say; spans the exporter gives up are told in the app log. */
function consoleTracer(env: Record<string, unknown>, logger: Logger): Tracer {
  const warn = logger.child('telemetry');
  return tracerFor(tracingConfigFrom(env, CONSOLE_SERVICE), {
    fetch: (input, init) => fetch(input, init),
    onDropped: (count, reason) => warn.warn('trace spans dropped', { count, reason }),
  });
}
