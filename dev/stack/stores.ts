import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createIoredisBackend, type RedisBackend } from '../../self-host/bridge/redis-backend';
import { ensureClickHouseDatabase } from '../../shared/src/stores/clickhouse';
import { applyMigrations, ensureDatabase } from '../db/migrations';
import { createMemoryBackend } from '../embedded/memory-backend';

export interface ClickHouseSettings {
  CLICKHOUSE_URL: string;
  CLICKHOUSE_USER?: string;
  CLICKHOUSE_PASSWORD?: string;
  CLICKHOUSE_DATABASE: string;
}

export interface ResolvedStores {
  /** Connection string the apps use; the sidecar maps its host to pgTarget. */
  databaseUrl: string;
  pgTarget: { host: string; port: number };
  redis: RedisBackend;
  clickhouse: ClickHouseSettings | null;
  /** One line per store for the start-up banner. */
  describe: string[];
  close(): Promise<void>;
}

/**
 * Real servers when DATABASE_URL / REDIS_URL / CLICKHOUSE_URL are set; otherwise embedded
 * defaults (PGlite on disk, in-memory Redis, analytics in Postgres) for a first trial.
 */
export async function resolveStores(env: NodeJS.ProcessEnv, dataDir: string): Promise<ResolvedStores> {
  const closers: Array<() => Promise<void>> = [];
  const describe: string[] = [];
  const pg = env.DATABASE_URL ? await realPostgres(env.DATABASE_URL) : await embeddedPostgres(dataDir);
  closers.push(pg.close);
  describe.push(pg.label);
  await applyMigrations(pg.databaseUrl);

  const redis = env.REDIS_URL ? createIoredisBackend(env.REDIS_URL) : createMemoryBackend();
  closers.push(() => redis.close());
  describe.push(
    env.REDIS_URL
      ? `redis:      ${redactUrl(env.REDIS_URL)}`
      : 'redis:      EMBEDDED in-memory store (single process, data lost on exit; not for production)',
  );

  const clickhouse = env.CLICKHOUSE_URL
    ? {
        CLICKHOUSE_URL: env.CLICKHOUSE_URL,
        CLICKHOUSE_USER: env.CLICKHOUSE_USER,
        CLICKHOUSE_PASSWORD: env.CLICKHOUSE_PASSWORD,
        CLICKHOUSE_DATABASE: env.CLICKHOUSE_DATABASE ?? 'sluice',
      }
    : null;
  if (clickhouse) {
    await ensureClickHouseDatabase({
      url: clickhouse.CLICKHOUSE_URL,
      username: clickhouse.CLICKHOUSE_USER,
      password: clickhouse.CLICKHOUSE_PASSWORD,
      database: clickhouse.CLICKHOUSE_DATABASE,
    });
  }
  describe.push(
    clickhouse
      ? `clickhouse: ${redactUrl(clickhouse.CLICKHOUSE_URL)} (database ${clickhouse.CLICKHOUSE_DATABASE})`
      : 'clickhouse: not configured; analytics and logs are kept in Postgres',
  );
  return {
    databaseUrl: pg.databaseUrl,
    pgTarget: pg.target,
    redis,
    clickhouse,
    describe,
    async close() {
      for (const close of closers.reverse()) await close().catch(() => {});
    },
  };
}

interface PostgresChoice {
  databaseUrl: string;
  target: { host: string; port: number };
  label: string;
  close: () => Promise<void>;
}

async function realPostgres(databaseUrl: string): Promise<PostgresChoice> {
  await ensureDatabase(databaseUrl);
  const url = new URL(databaseUrl);
  return {
    databaseUrl,
    target: { host: url.hostname, port: Number(url.port || 5432) },
    label: `postgres:   ${redactUrl(databaseUrl)}`,
    close: async () => {},
  };
}

async function embeddedPostgres(dataDir: string): Promise<PostgresChoice> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { servePglite } = await import('../embedded/pglite-server');
  const { freePort } = await import('./ports');
  const directory = join(dataDir, 'pglite');
  mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create(directory);
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

export function redactUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '(unparseable URL)';
  }
}
