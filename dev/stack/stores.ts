import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../self-host/process/ports';
import { realPostgres, realRedis } from '../../self-host/stores/real-stores';
import {
  type PostgresStore,
  type PreparedStores,
  prepareStores,
  type RedisStore,
} from '../../self-host/stores/stores';
import { createMemoryBackend } from '../embedded/memory-backend';

/**
 * Real servers when DATABASE_URL / REDIS_URL / CLICKHOUSE_URL are set; otherwise embedded
 * defaults (PGlite on disk, in-memory Redis, analytics in Postgres) for a first trial.
 */
export async function resolveStores(env: NodeJS.ProcessEnv, dataDir: string): Promise<PreparedStores> {
  const postgres = env.DATABASE_URL ? await realPostgres(env.DATABASE_URL) : await embeddedPostgres(dataDir);
  const redisUrl = env.REDIS_URL;
  return prepareStores(postgres, () => (redisUrl ? realRedis(redisUrl, env) : embeddedRedis()), env);
}

async function embeddedPostgres(dataDir: string): Promise<PostgresStore> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { servePglite } = await import('../embedded/pglite-server');
  const directory = join(dataDir, 'pglite');
  mkdirSync(dataDir, { recursive: true });
  // pg_trgm: the migrations create it (the key search's trigram indexes), as on a real server.
  const db = await PGlite.create(directory, { extensions: { pg_trgm } });
  const port = await freePort();
  const server = await servePglite(db, '127.0.0.1', port);
  return {
    databaseUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    target: { host: '127.0.0.1', port },
    label: `postgres:   EMBEDDED PGlite in ${directory} (not for production)`,
    close: async () => {
      await server.close();
      await db.close();
    },
  };
}

function embeddedRedis(): RedisStore {
  return {
    backend: createMemoryBackend(),
    url: null,
    label: 'redis:      EMBEDDED in-memory store (single process, data lost on exit; not for production)',
  };
}
