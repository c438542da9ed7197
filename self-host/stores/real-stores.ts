import { createIoredisBackend } from '../bridge/redis-backend';
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

/** A real Redis behind the bridge (`redis://` or `rediss://`; the path selects the database). */
export function realRedis(redisUrl: string): RedisStore {
  return { backend: createIoredisBackend(redisUrl), label: `redis:      ${redactUrl(redisUrl)}` };
}
