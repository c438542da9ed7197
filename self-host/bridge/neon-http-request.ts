import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { type PgTextParam, toPgTextParam } from './neon-http-params';

/** A failure the client caused, answered with this status and `{message}`. */
export class NeonHttpRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'NeonHttpRequestError';
  }
}

export interface SqlStatement {
  query: string;
  params: PgTextParam[];
}

export type SqlPayload =
  | { kind: 'single'; statement: SqlStatement }
  | { kind: 'transaction'; statements: SqlStatement[] };

/** Who to connect as; host and port are deliberately absent (the bridge's target wins). */
export interface ConnectionIdentity {
  user: string;
  password: string | undefined;
  database: string;
}

/** Collects the body, refusing (413) anything over `limitBytes` without buffering it. */
export function readBody(req: IncomingMessage, limitBytes: number): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limitBytes) {
    return Promise.reject(tooLarge(limitBytes));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (error: Error | null): void => {
      if (settled) return;
      settled = true;
      if (error) reject(error);
      else resolve(Buffer.concat(chunks).toString('utf8'));
    };
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limitBytes) {
        chunks.length = 0;
        settle(tooLarge(limitBytes));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => settle(null));
    req.on('error', (error) => settle(error));
    req.on('close', () => settle(new NeonHttpRequestError(400, 'request body was cut short')));
  });
}

function tooLarge(limitBytes: number): NeonHttpRequestError {
  return new NeonHttpRequestError(413, `request body is larger than ${limitBytes} bytes`);
}

/** `{query, params}` for one statement, `{queries: [...]}` for `sql.transaction([...])`. */
export function parsePayload(text: string): SqlPayload {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new NeonHttpRequestError(400, 'request body is not valid JSON');
  }
  if (!isRecord(body)) throw new NeonHttpRequestError(400, 'request body must be a JSON object');
  if (body.queries === undefined) return { kind: 'single', statement: parseStatement(body, 'body') };
  if (!Array.isArray(body.queries)) throw new NeonHttpRequestError(400, '"queries" must be an array');
  const statements = body.queries.map((item: unknown, i) => parseStatement(item, `queries[${i}]`));
  return { kind: 'transaction', statements };
}

function parseStatement(value: unknown, where: string): SqlStatement {
  if (!isRecord(value) || typeof value.query !== 'string') {
    throw new NeonHttpRequestError(400, `${where}: "query" must be a string`);
  }
  const params = value.params ?? [];
  if (!Array.isArray(params)) throw new NeonHttpRequestError(400, `${where}: "params" must be an array`);
  return { query: value.query, params: params.map((param: unknown) => toPgTextParam(param)) };
}

/** The user, password and database from `Neon-Connection-String`; its host is ignored. */
export function parseConnectionIdentity(headers: IncomingHttpHeaders): ConnectionIdentity {
  const raw = singleHeader(headers, 'neon-connection-string');
  if (raw === undefined) throw new NeonHttpRequestError(400, 'missing Neon-Connection-String header');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new NeonHttpRequestError(400, 'Neon-Connection-String is not a valid URL');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new NeonHttpRequestError(400, 'Neon-Connection-String must be a postgres:// URL');
  }
  const user = decodeURIComponent(url.username);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!user || !database) {
    throw new NeonHttpRequestError(400, 'Neon-Connection-String must name a user and a database');
  }
  return { user, password: url.password ? decodeURIComponent(url.password) : undefined, database };
}

/** Neon-Array-Mode: rows as arrays when 'true'. (Driver 1.x always sends 'true'.) */
export function parseArrayMode(headers: IncomingHttpHeaders): boolean {
  return singleHeader(headers, 'neon-array-mode') === 'true';
}

const ISOLATION_LEVELS: Record<string, string> = {
  ReadUncommitted: 'READ UNCOMMITTED',
  ReadCommitted: 'READ COMMITTED',
  RepeatableRead: 'REPEATABLE READ',
  Serializable: 'SERIALIZABLE',
};

/**
 * The BEGIN for a transaction batch, from the Neon-Batch-* headers. Every value is
 * whitelisted because it is spliced into SQL.
 */
export function beginStatement(headers: IncomingHttpHeaders): string {
  const parts = ['BEGIN'];
  const isolation = singleHeader(headers, 'neon-batch-isolation-level');
  if (isolation !== undefined) {
    const level = ISOLATION_LEVELS[isolation];
    if (!level) throw new NeonHttpRequestError(400, `unknown Neon-Batch-Isolation-Level "${isolation}"`);
    parts.push(`ISOLATION LEVEL ${level}`);
  }
  const readOnly = booleanHeader(headers, 'neon-batch-read-only');
  if (readOnly !== undefined) parts.push(readOnly ? 'READ ONLY' : 'READ WRITE');
  const deferrable = booleanHeader(headers, 'neon-batch-deferrable');
  if (deferrable !== undefined) parts.push(deferrable ? 'DEFERRABLE' : 'NOT DEFERRABLE');
  return parts.join(' ');
}

function booleanHeader(headers: IncomingHttpHeaders, name: string): boolean | undefined {
  const value = singleHeader(headers, name);
  if (value === undefined) return undefined;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new NeonHttpRequestError(400, `${name} must be "true" or "false"`);
}

function singleHeader(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
