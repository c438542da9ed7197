import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema';

/**
 * A drizzle Postgres database over our schema that runs transactions: the console's
 * node-postgres pool.
 */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/**
 * What every driver runs, one statement at a time: the Neon HTTP driver of the gateway's hot
 * path has no transactions, so code that takes a QueryDb cannot open one (it does not compile).
 * A Db is a QueryDb.
 */
export type QueryDb = Omit<Db, 'transaction'>;
