// What the apps use of db/. Inside shared/src, import the files themselves.
export { pageOf, pageQuerySchema, slicePage } from './paging';
export { databaseUnavailable, invalidValue, isDatabaseUnreachable, isInvalidValue } from './query-errors';
export type { Db, QueryDb } from './types';
