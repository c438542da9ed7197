import { type BatchInsert, createBatchingLedgerWriter } from '../../runtime/batching-writer';
import { type AppLogRecord, type AppLogSource, LOG_LEVEL_NAMES, LOG_LEVELS, type LogLevel } from './records';

export type LogFields = Record<string, unknown>;

export interface Logger {
  trace(message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** The same logger with another target (the module that logs): logger.child('proxy'). */
  child(target: string): Logger;
  /**
   * Settles when every store write started so far, and any started while waiting, has
   * settled. Never rejects. On workerd hand it to waitUntil; on Node there is no need.
   */
  flush(): Promise<void>;
}

/** Prints one line; by default console.error for ERROR, console.warn for WARN, else console.log. */
export type LogEcho = (level: LogLevel, line: string) => void;

export interface LoggerOptions {
  source: AppLogSource;
  /** The root target; child() replaces it. */
  target: string;
  /** Where records are stored, in batches; null: echo only. */
  store: BatchInsert<AppLogRecord> | null;
  /** Lines below it are neither stored nor printed. Default INFO. */
  minLevel?: LogLevel;
  echo?: LogEcho;
  /** Records given up after failed inserts (see the batching writer); printed either way. */
  onDrop?: (count: number, error: unknown) => void;
  now?: () => Date;
  newId?: () => string;
  /** Passed to the batching writer (tests use short delays). */
  maxBatch?: number;
  maxDelayMs?: number;
}

/**
 * An error as text, cut short (driver errors can carry a whole batch's parameters), with its
 * cause: drizzle wraps the driver's error ("Failed query: …") and only the cause says why.
 */
export function errorText(error: unknown): string {
  const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);
  const cause =
    error instanceof Error && error.cause !== undefined ? ` (cause: ${clip(String(error.cause), 300)})` : '';
  return clip(String(error), 500) + cause;
}

export const consoleEcho: LogEcho = (level, line) => {
  if (level === 'ERROR') console.error(line);
  else if (level === 'WARN') console.warn(line);
  else console.log(line);
};

/**
 * SLUICE_LOG_LEVEL: the minimum level stored and printed (default INFO, so TRACE and DEBUG
 * lines cost nothing unless asked for). An unknown value is a configuration error.
 */
export function logLevelFromEnv(env: Record<string, unknown>): LogLevel {
  const value = env.SLUICE_LOG_LEVEL;
  if (value === undefined || value === '') return 'INFO';
  const name = String(value).toUpperCase();
  if (!(LOG_LEVEL_NAMES as string[]).includes(name)) {
    throw new Error(`Invalid configuration: SLUICE_LOG_LEVEL must be one of ${LOG_LEVEL_NAMES.join(', ')}`);
  }
  return name as LogLevel;
}

/** Strings in fields lose what no store can keep (NUL, unpaired surrogates); the rest is JSON. */
function jsonFields(fields: LogFields): LogFields {
  try {
    const text = JSON.stringify(fields, (_key, value: unknown) => {
      if (typeof value === 'bigint') return value.toString();
      if (value instanceof Error) return { name: value.name, message: value.message };
      return typeof value === 'string' ? storable(value) : value;
    });
    const parsed: unknown = text === undefined ? {} : JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as LogFields)
      : {};
  } catch {
    // A cycle or a throwing toJSON: the line still goes out, without its fields.
    return { fields_error: 'fields could not be serialized' };
  }
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what is replaced.
const UNSTORABLE = /\u0000|[\uD800-\uDFFF]/gu;
const storable = (text: string): string => text.replace(UNSTORABLE, '\uFFFD');

/**
 * A structured logger: each line is printed as one JSON object (as the servers always did) and,
 * at or above the minimum level, stored in the application log through a batching writer (one
 * insert per batch, never one per line). Logging never throws: a failed store write is printed,
 * never logged again, so a broken store cannot make logging recurse. The store itself must not
 * log through this logger.
 */
export function createLogger(options: LoggerOptions): Logger {
  const minLevel = LOG_LEVELS[options.minLevel ?? 'INFO'];
  const echo = options.echo ?? consoleEcho;
  const now = options.now ?? (() => new Date());
  const newId = options.newId ?? (() => crypto.randomUUID());
  const pending = new Set<Promise<void>>();

  const print = (level: LogLevel, target: string, message: string, fields: LogFields) => {
    try {
      // The three names every line has come first, and fields never overwrite them.
      const line: LogFields = { level, target, message };
      echo(level, JSON.stringify(Object.assign(line, fields, { level, target, message })));
    } catch {
      // Printing is the last resort; there is nowhere left to report its failure.
    }
  };

  const writer = options.store
    ? createBatchingLedgerWriter<AppLogRecord>(options.store, {
        maxBatch: options.maxBatch,
        maxDelayMs: options.maxDelayMs,
        onError: (error, records) =>
          print('WARN', 'server-logs', 'app log write failed', {
            error: errorText(error),
            records: records.length,
          }),
        onDrop: (count, error) => {
          print('WARN', 'server-logs', 'app log records dropped', {
            dropped: count,
            error: errorText(error),
          });
          options.onDrop?.(count, error);
        },
      })
    : null;

  const store = (record: AppLogRecord) => {
    if (!writer) return;
    try {
      const batch = writer.write(record);
      // Once per batch, by the line that opened it (see server-logs/wiring.ts recordAccess).
      if (!pending.has(batch)) {
        pending.add(batch);
        void batch.catch(() => undefined).finally(() => pending.delete(batch));
      }
    } catch {
      // A writer that throws synchronously loses this line, which was printed already.
    }
  };

  const log = (level: LogLevel, target: string, message: string, raw: LogFields = {}) => {
    if (LOG_LEVELS[level] < minLevel) return;
    const fields = jsonFields(raw);
    const text = storable(String(message));
    print(level, target, text, fields);
    store({
      id: newId(),
      createdAt: now(),
      level,
      source: options.source,
      target: storable(target),
      message: text,
      fields,
    });
  };

  const loggerFor = (target: string): Logger => ({
    trace: (message, fields) => log('TRACE', target, message, fields),
    debug: (message, fields) => log('DEBUG', target, message, fields),
    info: (message, fields) => log('INFO', target, message, fields),
    warn: (message, fields) => log('WARN', target, message, fields),
    error: (message, fields) => log('ERROR', target, message, fields),
    child: (child) => loggerFor(child),
    flush: async () => {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  });
  return loggerFor(options.target);
}
