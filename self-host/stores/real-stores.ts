import { bridgeLimitsFromEnv } from '../bridge/limits';
import { createRedisBackend, runCommand } from '../bridge/redis-backend';
import { ensureDatabase } from './migrations';
import { type PostgresStore, type RedisStore, redactUrl } from './stores';

/** A real Postgres server; its database is created when missing. */
export async function realPostgres(databaseUrl: string): Promise<PostgresStore> {
  await ensureDatabase(databaseUrl);
  const url = new URL(databaseUrl);
  return {
    databaseUrl,
    target: { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 5432) },
    label: `postgres:   ${redactUrl(databaseUrl)}`,
    close: async () => {},
  };
}

/**
 * A real Redis behind the bridge (`redis://` or `rediss://`; the path selects the database),
 * checked with a PING so a wrong URL or password stops the start with Redis's own answer.
 */
export async function realRedis(redisUrl: string, env: NodeJS.ProcessEnv): Promise<RedisStore> {
  const backend = createRedisBackend(redisUrl, { commandTimeoutMs: bridgeLimitsFromEnv(env).redisTimeoutMs });
  try {
    await runCommand(backend, ['PING']);
  } catch (error) {
    await backend.close();
    throw new Error(
      `Redis at ${redactUrl(redisUrl)}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return { backend, url: redisUrl, label: `redis:      ${redactUrl(redisUrl)}` };
}
