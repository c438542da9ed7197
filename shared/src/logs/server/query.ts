import { MAX_STATUS_CODE, MIN_STATUS_CODE, statusRange } from '../status-match';
import {
  type AccessLogRecord,
  type AccessLogSearch,
  APP_LOG_SOURCES,
  type AppLogRecord,
  type AppLogSearch,
  LOG_LEVEL_NAMES,
  MAX_PORT,
  MIN_PORT,
  type StoredAccessLogRecord,
} from './records';

export { MAX_STATUS_CODE, MIN_STATUS_CODE } from '../status-match';
export const DEFAULT_SERVER_LOG_LIMIT = 50;
export const MAX_SERVER_LOG_LIMIT = 200;
/** Longest substring filter accepted. */
export const MAX_NEEDLE_LENGTH = 256;
/** latency_ms is a Postgres integer and a ClickHouse UInt32: refuse what either would not keep. */
const MAX_LATENCY_MS = 2 ** 31 - 1;
/** An HTTP method is a token; 32 characters is far beyond any real one. */
const METHOD = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Postgres text cannot hold NUL, and an unpaired surrogate has no UTF-8 encoding: refused in
// both adapters alike so they never disagree about what was stored.
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what is refused.
const UNSTORABLE = /\u0000|[\uD800-\uDFFF]/u;

type Paged<T> = Omit<T, 'limit' | 'offset'> & { limit: number; offset: number };
export type AccessLogQuery = Omit<Paged<AccessLogSearch>, 'statusCode'> & {
  /** The status match as the inclusive range of codes it covers. */
  status?: { min: number; max: number };
};
export type AppLogQuery = Paged<AppLogSearch>;

/**
 * Validates an access-log search (RangeError on a bad value) and applies the defaults. The HTTP
 * layer validates first; this guards other callers and keeps the two adapters answering alike.
 * The method comes back upper-cased and the user id lowercased, as they are stored.
 */
export function accessLogQuery(search: AccessLogSearch): AccessLogQuery {
  const paged = pageOf(search);
  if (search.method !== undefined && !(typeof search.method === 'string' && METHOD.test(search.method))) {
    throw new RangeError(`invalid method ${String(search.method)}`);
  }
  const status = search.statusCode === undefined ? undefined : statusRange(search.statusCode);
  checkPort('port', search.port);
  if (search.source !== undefined && !APP_LOG_SOURCES.includes(search.source)) {
    throw new RangeError(`invalid source ${String(search.source)}`);
  }
  checkNeedle('path', search.path);
  checkNeedle('q', search.q);
  checkRange(search.from, search.to);
  const { statusCode: _match, ...rest } = paged;
  return {
    ...rest,
    status,
    method: search.method?.toUpperCase(),
    userId: lowerUuid('userId', search.userId),
  };
}

/** Validates an app-log search (RangeError on a bad value) and applies the defaults. */
export function appLogQuery(search: AppLogSearch): AppLogQuery {
  const paged = pageOf(search);
  if (search.level !== undefined && !LOG_LEVEL_NAMES.includes(search.level)) {
    throw new RangeError(`invalid level ${String(search.level)}`);
  }
  checkNeedle('target', search.target);
  checkNeedle('q', search.q);
  checkRange(search.from, search.to);
  return paged;
}

/** Refuses an access record neither adapter could store faithfully; answers it as stored. */
export function checkAccessLogRecord(record: AccessLogRecord): StoredAccessLogRecord {
  const where = `access log ${record.id}`;
  checkUuid(`${where}: id`, record.id);
  checkDate(`${where}: createdAt`, record.createdAt);
  checkPort(`${where}: port`, record.port);
  const source = record.source ?? null;
  if (source !== null && !APP_LOG_SOURCES.includes(source)) throw new RangeError(`${where}: invalid source`);
  if (!METHOD.test(record.method)) throw new RangeError(`${where}: invalid method`);
  checkText(`${where}: path`, record.path);
  checkStatusCode(`${where}: statusCode`, record.statusCode);
  checkUuid(`${where}: userId`, record.userId ?? undefined);
  const { latencyMs } = record;
  if (!Number.isSafeInteger(latencyMs) || latencyMs < 0 || latencyMs > MAX_LATENCY_MS) {
    throw new RangeError(`${where}: invalid latencyMs ${latencyMs}`);
  }
  if (record.ip !== null) checkText(`${where}: ip`, record.ip);
  if (record.userAgent !== null) checkText(`${where}: userAgent`, record.userAgent);
  return {
    ...record,
    source,
    id: record.id.toLowerCase(),
    method: record.method.toUpperCase(),
    userId: record.userId?.toLowerCase() ?? null,
  };
}

/** Refuses an app-log record neither adapter could store faithfully; answers it as stored. */
export function checkAppLogRecord(record: AppLogRecord): AppLogRecord {
  const where = `app log ${record.id}`;
  checkUuid(`${where}: id`, record.id);
  checkDate(`${where}: createdAt`, record.createdAt);
  if (!LOG_LEVEL_NAMES.includes(record.level)) throw new RangeError(`${where}: invalid level`);
  if (!APP_LOG_SOURCES.includes(record.source)) throw new RangeError(`${where}: invalid source`);
  checkText(`${where}: target`, record.target);
  checkText(`${where}: message`, record.message);
  const fields = record.fields;
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) {
    throw new RangeError(`${where}: fields must be an object`);
  }
  // Both adapters store the JSON text (jsonb in Postgres), so the record keeps exactly that.
  let json: unknown;
  try {
    json = JSON.parse(JSON.stringify(fields));
  } catch {
    throw new RangeError(`${where}: fields are not JSON`);
  }
  if (holdsUnstorable(json)) throw new RangeError(`${where}: fields hold NUL or an unpaired surrogate`);
  return { ...record, id: record.id.toLowerCase(), fields: json as Record<string, unknown> };
}

function holdsUnstorable(value: unknown): boolean {
  if (typeof value === 'string') return UNSTORABLE.test(value);
  if (Array.isArray(value)) return value.some(holdsUnstorable);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).some(([key, item]) => UNSTORABLE.test(key) || holdsUnstorable(item));
  }
  return false;
}

function pageOf<T extends { limit?: number; offset?: number }>(search: T): Paged<T> {
  const limit = search.limit ?? DEFAULT_SERVER_LOG_LIMIT;
  const offset = search.offset ?? 0;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_SERVER_LOG_LIMIT) {
    throw new RangeError(`invalid limit ${limit} (1..${MAX_SERVER_LOG_LIMIT})`);
  }
  if (!Number.isSafeInteger(offset) || offset < 0) throw new RangeError(`invalid offset ${offset}`);
  return { ...search, limit, offset };
}

function checkStatusCode(name: string, value: number | undefined): void {
  if (value === undefined) return;
  if (!Number.isSafeInteger(value) || value < MIN_STATUS_CODE || value > MAX_STATUS_CODE) {
    throw new RangeError(`invalid ${name} ${value} (${MIN_STATUS_CODE}..${MAX_STATUS_CODE})`);
  }
}

function checkPort(name: string, value: number | undefined): void {
  if (value === undefined) return;
  if (!Number.isSafeInteger(value) || value < MIN_PORT || value > MAX_PORT) {
    throw new RangeError(`invalid ${name} ${value} (${MIN_PORT}..${MAX_PORT})`);
  }
}

function checkNeedle(name: string, value: string | undefined): void {
  if (value === undefined) return;
  if (typeof value !== 'string' || value.length < 1 || value.length > MAX_NEEDLE_LENGTH) {
    throw new RangeError(`invalid ${name} (1..${MAX_NEEDLE_LENGTH} characters)`);
  }
  if (UNSTORABLE.test(value)) throw new RangeError(`invalid ${name}: NUL or an unpaired surrogate`);
}

function checkText(name: string, value: string): void {
  if (typeof value !== 'string' || UNSTORABLE.test(value)) {
    throw new RangeError(`invalid ${name}: not text, or NUL or an unpaired surrogate`);
  }
}

function checkRange(from: Date | undefined, to: Date | undefined): void {
  checkDate('from', from);
  checkDate('to', to);
  if (from && to && from.getTime() > to.getTime()) throw new RangeError('from is after to');
}

function checkDate(name: string, value: Date | undefined): void {
  if (value !== undefined && !(value instanceof Date && Number.isFinite(value.getTime()))) {
    throw new RangeError(`invalid ${name}`);
  }
}

function checkUuid(name: string, value: string | undefined): void {
  if (value !== undefined && !(typeof value === 'string' && UUID.test(value))) {
    throw new RangeError(`invalid ${name} ${String(value)}`);
  }
}

function lowerUuid(name: string, value: string | undefined): string | undefined {
  checkUuid(name, value);
  return value?.toLowerCase();
}
