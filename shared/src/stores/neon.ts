import { neon, neonConfig, Pool } from '@neondatabase/serverless';
import { drizzle as drizzleHttp } from 'drizzle-orm/neon-http';
import { drizzle as drizzlePool } from 'drizzle-orm/neon-serverless';
import * as schema from '../db/schema';
import type { Db, QueryDb } from '../db/types';

export interface NeonLocalEndpoints {
  wsProxy?: string | undefined;
  httpEndpoint?: string | undefined;
}

/**
 * Points the official driver at the dev sidecar when local endpoints are given; in
 * production neither is set and the driver talks to Neon directly. neonConfig is the
 * driver's own module-level configuration, so this runs once per process/isolate.
 */
export function configureNeon(local: NeonLocalEndpoints, webSocketConstructor?: unknown): void {
  if (webSocketConstructor) neonConfig.webSocketConstructor = webSocketConstructor as typeof WebSocket;
  if (local.wsProxy) {
    const proxy = local.wsProxy;
    neonConfig.wsProxy = (host, port) => `${proxy}?address=${host}:${port}`;
    neonConfig.useSecureWebSocket = false;
    neonConfig.pipelineConnect = false;
    neonConfig.pipelineTLS = false;
    neonConfig.forceDisablePgSSL = true;
  }
  if (local.httpEndpoint) {
    const endpoint = local.httpEndpoint;
    neonConfig.fetchEndpoint = () => endpoint;
  }
}

/**
 * One-statement queries over HTTP: the gateway hot path. Typed QueryDb, so a transaction on it
 * does not compile (the driver would throw at run time). The cast only unifies the result type
 * of execute() (Neon's HTTP rows and the pool's QueryResult both carry `rows`).
 */
export function createHttpDb(databaseUrl: string): QueryDb {
  return drizzleHttp(neon(databaseUrl), { schema }) as unknown as QueryDb;
}

export interface PooledDb {
  db: Db;
  pool: Pool;
}

/**
 * A WebSocket pool for transactions. In workerd create it per request and end it in waitUntil.
 * `timeoutMs` bounds getting a connection and each query; a query past it fails and (outside a
 * transaction) its connection is dropped, so a dead link is not handed out again.
 */
export function createPooledDb(databaseUrl: string, max = 10, timeoutMs = 15_000): PooledDb {
  const pool = new Pool({
    connectionString: databaseUrl,
    max,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
  });
  // An idle client that errors (server restart) must not crash the process.
  pool.on('error', () => {});
  return { pool, db: drizzlePool(pool, { schema }) as unknown as Db };
}
