import { type ChSql, chIdent, chSql } from '../analytics/clickhouse-sql';

export const ACCESS_LOG_TABLE = 'access_logs';
export const APP_LOG_TABLE = 'app_logs';

/**
 * Both tables (ClickHouse 18.16): DateTime holds whole seconds (no DateTime64), so
 * created_at_ms keeps the exact instant and orders rows. Partitioned by day so retention can
 * drop whole days (ALTER TABLE … DROP PARTITION), ordered by (created_at, id) for range scans.
 */
export function accessLogTableDdl(database: string): ChSql {
  return chSql`CREATE TABLE IF NOT EXISTS ${chIdent(database, ACCESS_LOG_TABLE)} (
    id String,
    created_at DateTime('UTC'),
    created_at_ms UInt64,
    port UInt16,
    method String,
    path String,
    status_code UInt16,
    user_id Nullable(String),
    latency_ms UInt32,
    ip Nullable(String),
    user_agent Nullable(String)
  ) ENGINE = MergeTree() PARTITION BY toYYYYMMDD(created_at) ORDER BY (created_at, id)`;
}

/** level is the number (10..50) so a minimum level is a range; fields is the JSON text. */
export function appLogTableDdl(database: string): ChSql {
  return chSql`CREATE TABLE IF NOT EXISTS ${chIdent(database, APP_LOG_TABLE)} (
    id String,
    created_at DateTime('UTC'),
    created_at_ms UInt64,
    level UInt8,
    source Enum8('gateway' = 1, 'console' = 2),
    target String,
    message String,
    fields String
  ) ENGINE = MergeTree() PARTITION BY toYYYYMMDD(created_at) ORDER BY (created_at, id)`;
}

/** Case-insensitive substring test (UTF-8 aware, like Postgres ILIKE); no pattern characters. */
export function chContains(column: ChSql, needle: string): ChSql {
  return chSql`positionCaseInsensitiveUTF8(${column}, ${needle}) > 0`;
}
