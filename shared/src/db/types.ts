import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema';

/** Any drizzle Postgres database over our schema: Neon HTTP on the gateway, Neon Pool in the console. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
