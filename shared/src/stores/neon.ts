import { neon, neonConfig } from '@neondatabase/serverless';
import { drizzle as drizzleHttp } from 'drizzle-orm/neon-http';
import * as schema from '../db/schema';
import type { QueryDb } from '../db/types';

/**
 * Points the official driver's HTTP queries at the store bridge's `/sql` when the endpoint is
 * given (self-hosted); in production it is not set and the driver talks to Neon directly.
 * neonConfig is the driver's own module-level configuration, so this runs once per isolate.
 */
export function configureNeon(local: { httpEndpoint?: string | undefined }): void {
  if (local.httpEndpoint) {
    const endpoint = local.httpEndpoint;
    neonConfig.fetchEndpoint = () => endpoint;
  }
}

/**
 * One-statement queries over HTTP: the gateway hot path. Typed QueryDb, so a transaction on it
 * does not compile (the driver would throw at run time). The cast only unifies the result type
 * of execute() (Neon's HTTP rows and node-postgres's QueryResult both carry `rows`).
 */
export function createHttpDb(databaseUrl: string): QueryDb {
  return drizzleHttp(neon(databaseUrl), { schema }) as unknown as QueryDb;
}
