import { CONSOLE_PORT } from '@sluice/shared/logs/server/records';
import type { MiddlewareHandler } from 'hono';
import type { ConsoleEnv } from '../types';

/** Longer paths are cut: a log row should stay small whatever a client sends. */
const MAX_PATH = 2048;

/**
 * One access-log record per request: method, the path as sent (percent-encoded, no query
 * string), status, the signed-in user (requireJwt's claims) when there is one, time to the
 * response, and the client IP and user agent as requestMeta determined them. The record joins
 * a batch; nothing waits for it (Node keeps running the write).
 */
export function recordAccessLog(): MiddlewareHandler<ConsoleEnv> {
  return async function accessLogMiddleware(c, next) {
    const createdAt = new Date();
    const started = performance.now();
    await next();
    const { deps, meta, auth } = c.var;
    void deps.recordAccess({
      id: crypto.randomUUID(),
      createdAt,
      port: CONSOLE_PORT,
      method: c.req.method,
      path: new URL(c.req.url).pathname.slice(0, MAX_PATH),
      statusCode: c.res.status,
      userId: auth?.userId ?? null,
      latencyMs: Math.max(0, Math.round(performance.now() - started)),
      ip: meta?.ipAddress?.slice(0, 64) ?? null,
      userAgent: meta?.userAgent ?? null,
    });
  };
}
