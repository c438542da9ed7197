import type { Db } from '@sluice/shared/db';
import * as schema from '@sluice/shared/db/schema';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';

export interface PostgresPool {
  db: Db;
  pool: pg.Pool;
}

/**
 * The console's Postgres: a node-postgres pool straight to DATABASE_URL (a server, Neon's
 * pooled endpoint, or `npm start`'s embedded PGlite). `timeoutMs` bounds getting a connection
 * and each query; a query past it fails and its connection is dropped (the pool discards a
 * client released with an error), so a dead link is not handed out again.
 */
export function createPostgresPool(databaseUrl: string, max = 10, timeoutMs = 15_000): PostgresPool {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    // A server gone without a word (a network path cut) shows up on an idle connection too.
    keepAlive: true,
  });
  // An idle client that errors (server restart) must not crash the process.
  pool.on('error', () => {});
  return { pool, db: drizzle(pool, { schema }) };
}
