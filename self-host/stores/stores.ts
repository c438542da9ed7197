import { ensureClickHouseDatabase } from '@sluice/shared/stores';
import type { RedisBackend } from '../bridge/redis-backend';
import { applyMigrations } from './migrations';

export interface ClickHouseSettings {
  CLICKHOUSE_URL: string;
  CLICKHOUSE_USER?: string;
  CLICKHOUSE_PASSWORD?: string;
  CLICKHOUSE_DATABASE: string;
}

/** A Postgres the stack runs on: a real server or the embedded PGlite of `npm start`. */
export interface PostgresStore {
  /** Connection string the apps use; the bridge sends every connection to `target`. */
  databaseUrl: string;
  target: { host: string; port: number };
  /** The banner's line for it. */
  label: string;
  close(): Promise<void>;
}

/** A Redis the bridge serves: a real server or the embedded in-memory store. */
export interface RedisStore {
  backend: RedisBackend;
  /** A real server's URL, which the console connects to itself; null for the embedded store. */
  url: string | null;
  label: string;
}

export interface PreparedStores {
  databaseUrl: string;
  pgTarget: { host: string; port: number };
  redis: RedisBackend;
  /** Set for a real Redis: the console reaches it over TCP instead of through the bridge. */
  redisUrl: string | null;
  clickhouse: ClickHouseSettings | null;
  /** One line per store for the start-up banner. */
  describe: string[];
  close(): Promise<void>;
}

/**
 * Migrates Postgres, opens Redis, creates the ClickHouse database when one is configured, and
 * hands back one handle that closes all of it. Whatever was opened is closed again when a
 * later step fails.
 */
export async function prepareStores(
  postgres: PostgresStore,
  openRedis: () => RedisStore | Promise<RedisStore>,
  env: NodeJS.ProcessEnv,
): Promise<PreparedStores> {
  const closers: Array<() => Promise<void>> = [postgres.close];
  const close = async (): Promise<void> => {
    for (const closer of closers.reverse()) await closer().catch(() => {});
  };
  try {
    await applyMigrations(postgres.databaseUrl);
    const redis = await openRedis();
    closers.push(() => redis.backend.close());
    const clickhouse = await prepareClickHouse(env);
    return {
      databaseUrl: postgres.databaseUrl,
      pgTarget: postgres.target,
      redis: redis.backend,
      redisUrl: redis.url,
      clickhouse,
      describe: [
        postgres.label,
        redis.label,
        clickhouse
          ? `clickhouse: ${redactUrl(clickhouse.CLICKHOUSE_URL)} (database ${clickhouse.CLICKHOUSE_DATABASE})`
          : 'clickhouse: not configured; analytics and logs are kept in Postgres',
      ],
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

async function prepareClickHouse(env: NodeJS.ProcessEnv): Promise<ClickHouseSettings | null> {
  if (!env.CLICKHOUSE_URL) return null;
  const settings: ClickHouseSettings = {
    CLICKHOUSE_URL: env.CLICKHOUSE_URL,
    CLICKHOUSE_DATABASE: env.CLICKHOUSE_DATABASE ?? 'sluice',
  };
  if (env.CLICKHOUSE_USER !== undefined) settings.CLICKHOUSE_USER = env.CLICKHOUSE_USER;
  if (env.CLICKHOUSE_PASSWORD !== undefined) settings.CLICKHOUSE_PASSWORD = env.CLICKHOUSE_PASSWORD;
  await ensureClickHouseDatabase({
    url: settings.CLICKHOUSE_URL,
    username: settings.CLICKHOUSE_USER,
    password: settings.CLICKHOUSE_PASSWORD,
    database: settings.CLICKHOUSE_DATABASE,
  });
  return settings;
}

/** A URL fit for a banner or a log line: the password replaced by `***`. */
export function redactUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '(unparseable URL)';
  }
}
