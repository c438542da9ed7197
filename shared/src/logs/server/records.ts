/**
 * The server logs: the access log (one record per HTTP request to either server) and
 * the application log (structured lines from both servers' code). Runtime-neutral; the stores
 * are ports with a Postgres and a ClickHouse adapter.
 */

import type { StatusMatch } from '../status-match';

/**
 * The default ports of the two services: the gateway 3000, the console 3001. A record
 * carries the port its server listens on (SLUICE_GATEWAY_PORT, SLUICE_CONSOLE_PORT), which
 * recordAccess stamps (wiring.ts); these are what a server without a configured port reports.
 */
export const GATEWAY_PORT = 3000;
export const CONSOLE_PORT = 3001;
export const MIN_PORT = 1;
export const MAX_PORT = 65_535;

export const APP_LOG_SOURCES = ['gateway', 'console'] as const;
export type AppLogSource = (typeof APP_LOG_SOURCES)[number];

export interface AccessLogRecord {
  id: string;
  /** When the request arrived. */
  createdAt: Date;
  /**
   * The server that answered. recordAccess stamps it; stores keep null for records without it
   * (rows written before it was recorded read null).
   */
  source?: AppLogSource | null;
  /** The port that server listens on (1..65535). */
  port: number;
  /** Stored upper-cased. */
  method: string;
  /** The path as the client sent it (percent-encoded), without the query string. */
  path: string;
  statusCode: number;
  /** The authenticated user, null when the request was not authenticated. */
  userId: string | null;
  /** Time to the response headers (a stream's body may run on after). */
  latencyMs: number;
  ip: string | null;
  userAgent: string | null;
}

/**
 * An access record as its stores keep it: source null, not absent, when the record had none
 * (rows written before the column existed read null too).
 */
export type StoredAccessLogRecord = AccessLogRecord & { source: AppLogSource | null };

/** Level names and the numbers stored for them: "at least WARN" is a range (>= 40). */
export const LOG_LEVELS = { TRACE: 10, DEBUG: 20, INFO: 30, WARN: 40, ERROR: 50 } as const;
export type LogLevel = keyof typeof LOG_LEVELS;
export const LOG_LEVEL_NAMES = Object.keys(LOG_LEVELS) as LogLevel[];
/** The level name of a stored number (both tables allow only these). */
export function levelName(value: number): LogLevel {
  const name = LOG_LEVEL_NAMES.find((level) => LOG_LEVELS[level] === value);
  if (!name) throw new RangeError(`unknown stored log level ${value}`);
  return name;
}

export interface AppLogRecord {
  id: string;
  createdAt: Date;
  level: LogLevel;
  source: AppLogSource;
  /** The module that logged, e.g. "proxy" or "key-jobs". */
  target: string;
  message: string;
  /** JSON-safe structured context (the logger makes it so). */
  fields: Record<string, unknown>;
}

export interface AccessLogSearch {
  /** Exact, case-insensitive. */
  method?: string;
  /** Case-insensitive substring of the path. */
  path?: string;
  /** One status code (404) or a class of them ('4xx'). */
  statusCode?: StatusMatch;
  /** The server that answered. */
  source?: AppLogSource;
  port?: number;
  userId?: string;
  /** Case-insensitive substring of the path or the user agent. */
  q?: string;
  /** Inclusive bounds on createdAt, to the millisecond. */
  from?: Date;
  to?: Date;
  limit?: number;
  offset?: number;
}

export interface AppLogSearch {
  /** The minimum level: WARN matches WARN and ERROR. */
  level?: LogLevel;
  /** Case-insensitive substring of the target. */
  target?: string;
  /** Case-insensitive substring of the message. */
  q?: string;
  from?: Date;
  to?: Date;
  limit?: number;
  offset?: number;
}

/** One page (newest first, ties by id descending) and the number of all matches. */
export interface LogPage<R> {
  total: number;
  entries: R[];
}

export interface AccessLogStore {
  insert(records: readonly AccessLogRecord[]): Promise<void>;
  search(query: AccessLogSearch): Promise<LogPage<StoredAccessLogRecord>>;
}

export interface AppLogStore {
  insert(records: readonly AppLogRecord[]): Promise<void>;
  search(query: AppLogSearch): Promise<LogPage<AppLogRecord>>;
}
