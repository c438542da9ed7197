import type { AccessLogRecord } from './records';

/** Longer paths, addresses and user agents are cut: a log row should stay small whatever a client sends. */
const MAX_PATH = 2048;
const MAX_IP = 64;
const MAX_USER_AGENT = 512;

/**
 * The path of a request URL as sent: percent-encoded, no query string or fragment (a Request's
 * URL is already normalised, so this is its pathname without parsing it again).
 */
export function pathAsSent(url: string): string {
  const start = url.indexOf('/', url.indexOf(':') + 3);
  if (start === -1) return '/';
  let end = url.length;
  for (let i = start; i < url.length; i++) {
    const ch = url.charCodeAt(i);
    if (ch === 63 || ch === 35) {
      end = i;
      break;
    }
  }
  return url.slice(start, end);
}

/** What a server knows of a request once its response is ready. */
export interface AccessSeen {
  /** The server's port as access records name it (records.ts: GATEWAY_PORT, CONSOLE_PORT). */
  port: number;
  method: string;
  /** The request's URL; the record keeps its path. */
  url: string;
  statusCode: number;
  userId: string | null;
  ip: string | null | undefined;
  userAgent: string | null | undefined;
}

/**
 * Starts one request's access-log record, as the request comes in; the function it returns
 * finishes the record once the response is ready, with the time to it. Both apps' access-log
 * middlewares build their records here.
 */
export function startAccessRecord(): (seen: AccessSeen) => AccessLogRecord {
  const createdAt = new Date();
  const started = performance.now();
  return (seen) => ({
    id: crypto.randomUUID(),
    createdAt,
    port: seen.port,
    method: seen.method,
    path: pathAsSent(seen.url).slice(0, MAX_PATH),
    statusCode: seen.statusCode,
    userId: seen.userId,
    latencyMs: Math.max(0, Math.round(performance.now() - started)),
    ip: seen.ip?.slice(0, MAX_IP) ?? null,
    userAgent: seen.userAgent?.slice(0, MAX_USER_AGENT) ?? null,
  });
}
