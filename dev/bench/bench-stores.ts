/**
 * The bench's own stores, emptied at start: a Postgres database (`sluice_bench_npm` unless
 * BENCH_DATABASE_URL says otherwise), a Redis database (8) and, when ClickHouse answers, a
 * ClickHouse database of the same name for the request log (else the log goes to Postgres).
 * They are left as the run leaves them, for a look afterwards; the next run empties them.
 */
import pg from 'pg';
import { RedisProbe } from './redis-stats';

export interface BenchStoreOptions {
  databaseUrl: string;
  redisUrl: string;
  /** Used only when it answers within a second. */
  clickhouseUrl: string | null;
}

export interface BenchStores {
  databaseUrl: string;
  redisUrl: string;
  clickhouse: { url: string; database: string } | null;
  /** What the stack is started with. */
  env: Record<string, string>;
}

const SAFE_NAME = /^[a-z_][a-z0-9_]*$/;

export function databaseName(databaseUrl: string): string {
  const name = new URL(databaseUrl).pathname.replace(/^\//, '');
  if (!SAFE_NAME.test(name)) throw new Error(`refusing to drop a database named "${name}"`);
  return name;
}

export async function resetStores(options: BenchStoreOptions): Promise<BenchStores> {
  const name = databaseName(options.databaseUrl);
  await recreatePostgres(options.databaseUrl, name);
  const redis = await RedisProbe.open(options.redisUrl);
  try {
    await redis.flushDb();
  } finally {
    redis.close();
  }
  const clickhouse =
    options.clickhouseUrl && (await answers(options.clickhouseUrl)) ? options.clickhouseUrl : null;
  if (clickhouse) await clickhouseQuery(clickhouse, `DROP DATABASE IF EXISTS ${name}`);
  return {
    databaseUrl: options.databaseUrl,
    redisUrl: options.redisUrl,
    clickhouse: clickhouse ? { url: clickhouse, database: name } : null,
    env: {
      DATABASE_URL: options.databaseUrl,
      REDIS_URL: options.redisUrl,
      ...(clickhouse ? { CLICKHOUSE_URL: clickhouse, CLICKHOUSE_DATABASE: name } : {}),
    },
  };
}

/** Rows in the request log: proof that logging was on and kept up with the load. */
export async function requestLogRows(stores: BenchStores): Promise<number> {
  if (stores.clickhouse) {
    const { url, database } = stores.clickhouse;
    return Number((await clickhouseQuery(url, `SELECT count() FROM ${database}.request_logs`)).trim());
  }
  const client = new pg.Client({ connectionString: stores.databaseUrl });
  await client.connect();
  try {
    const result = await client.query<{ n: string }>('SELECT count(*) AS n FROM request_logs');
    return Number(result.rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

async function recreatePostgres(databaseUrl: string, name: string): Promise<void> {
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
}

export async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/?query=SELECT%201`, { signal: AbortSignal.timeout(1000) });
    return res.ok;
  } catch {
    return false;
  }
}

export async function clickhouseQuery(url: string, query: string): Promise<string> {
  const res = await fetch(`${url}/`, { method: 'POST', body: query, signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  if (!res.ok) throw new Error(`ClickHouse: ${query}: ${res.status} ${text}`);
  return text;
}
