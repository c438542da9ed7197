import {
  chEnum8,
  chMapped,
  chNullable,
  chString,
  chUInt8,
  chUInt16,
  chUInt32,
} from '../analytics/clickhouse-columns';
import { chLogSchema } from '../analytics/clickhouse-schema';
import { type ChSql, chSql } from '../analytics/clickhouse-sql';
import {
  type AppLogRecord,
  type AppLogSource,
  LOG_LEVELS,
  type LogLevel,
  levelName,
  type StoredAccessLogRecord,
} from './records';

export const ACCESS_LOG_TABLE = 'access_logs';
export const APP_LOG_TABLE = 'app_logs';

/** The server of a record, as both logs store it. */
const SOURCE_CODES: Readonly<Record<AppLogSource, number>> = { gateway: 1, console: 2 };

/** id and createdAt are checked (and lowercased) by checkAccessLogRecord before a row is made. */
export const accessLogSchema = chLogSchema<StoredAccessLogRecord>({
  name: ACCESS_LOG_TABLE,
  label: 'access log',
  columns: {
    port: chUInt16('port'),
    method: chString('method'),
    path: chString('path'),
    statusCode: chUInt16('status_code'),
    userId: chNullable(chString('user_id')),
    latencyMs: chUInt32('latency_ms'),
    ip: chNullable(chString('ip')),
    userAgent: chNullable(chString('user_agent')),
    // Last: a table created before it gets it appended (rows already there read null).
    source: chNullable(chEnum8<AppLogSource>('source', SOURCE_CODES)),
  },
});

/** level is the number (10..50) so a minimum level is a range; fields is the JSON text. */
export const appLogSchema = chLogSchema<AppLogRecord>({
  name: APP_LOG_TABLE,
  label: 'app log',
  columns: {
    level: chMapped(chUInt8('level'), (level: LogLevel) => LOG_LEVELS[level], levelName),
    source: chEnum8<AppLogSource>('source', SOURCE_CODES),
    target: chString('target'),
    message: chString('message'),
    fields: chMapped(
      chString('fields'),
      (fields: Record<string, unknown>) => JSON.stringify(fields),
      (text) => JSON.parse(text) as Record<string, unknown>,
    ),
  },
});

/** Case-insensitive substring test (UTF-8 aware, like Postgres ILIKE); no pattern characters. */
export function chContains(column: ChSql, needle: string): ChSql {
  return chSql`positionCaseInsensitiveUTF8(${column}, ${needle}) > 0`;
}
