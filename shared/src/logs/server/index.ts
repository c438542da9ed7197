export { createClickHouseAccessLogStore } from './clickhouse-access';
export { createClickHouseAppLogStore } from './clickhouse-app';
export { ACCESS_LOG_TABLE, APP_LOG_TABLE } from './clickhouse-tables';
export { createPostgresAccessLogStore, createPostgresAppLogStore } from './postgres-store';
export * from './query';
export * from './records';
