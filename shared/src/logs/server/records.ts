/**
 * The server logs (issue 7): the access log (one record per HTTP request to either server) and
 * the application log (structured lines from both servers' code). Runtime-neutral; the stores
 * are ports with a Postgres and a ClickHouse adapter.
 */

/** The nominal ports of the two services (SPEC): the gateway is 3000, the console 3001. */
export const ACCESS_LOG_PORTS = [3000, 3001] as const;
export type AccessLogPort = (typeof ACCESS_LOG_PORTS)[number];
export const GATEWAY_PORT: AccessLogPort = 3000;
export const CONSOLE_PORT: AccessLogPort = 3001;

export interface AccessLogRecord {
  id: string;
  /** When the request arrived. */
  createdAt: Date;
  port: AccessLogPort;
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

export const APP_LOG_SOURCES = ['gateway', 'console'] as const;
export type AppLogSource = (typeof APP_LOG_SOURCES)[number];

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
  statusCode?: number;
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
  search(query: AccessLogSearch): Promise<LogPage<AccessLogRecord>>;
}

export interface AppLogStore {
  insert(records: readonly AppLogRecord[]): Promise<void>;
  search(query: AppLogSearch): Promise<LogPage<AppLogRecord>>;
}
