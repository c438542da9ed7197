export { startAccessRecord } from './access-record';
export { createClickHouseAccessLogStore } from './clickhouse-access';
export { createClickHouseAppLogStore } from './clickhouse-app';
export { ACCESS_LOG_TABLE, APP_LOG_TABLE, accessLogSchema, appLogSchema } from './clickhouse-tables';
export { errorText, type Logger } from './logger';
export { createPostgresAccessLogStore, createPostgresAppLogStore } from './postgres-store';
export * from './query';
export * from './records';
export { buildServerLogs } from './wiring';
