import type { Principal } from '@sluice/shared/gateway/principal';
import { GATEWAY_PORT } from '@sluice/shared/logs/server/records';
import type { MiddlewareHandler } from 'hono';
import { backgroundFor } from '../background';
import type { GatewayEnv } from '../types';

/** Longer paths and user agents are cut: a log row should stay small whatever a client sends. */
const MAX_PATH = 2048;
const MAX_USER_AGENT = 512;

/** The path of a request URL as sent (a Request's URL is already normalised and encoded). */
function pathOf(url: string): string {
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

/**
 * One access-log record per request: method, the path as sent (percent-encoded, no query
 * string), status, the authenticated user, time to the response headers, client IP and user
 * agent. The port is the gateway's default 3000, whatever it listens on. Nothing is
 * awaited; the record joins a batch, which the request that opened it keeps alive (waitUntil).
 */
export function recordAccessLog(): MiddlewareHandler<GatewayEnv> {
  return async function accessLogMiddleware(c, next) {
    const createdAt = new Date();
    const started = performance.now();
    await next();
    const principal = c.get('principal') as Principal | undefined;
    void c.get('deps').recordAccess(
      {
        id: crypto.randomUUID(),
        createdAt,
        port: GATEWAY_PORT,
        method: c.req.method,
        path: pathOf(c.req.url).slice(0, MAX_PATH),
        statusCode: c.res.status,
        userId: principal?.userId ?? null,
        latencyMs: Math.max(0, Math.round(performance.now() - started)),
        // Set by Cloudflare in front of Workers; absent elsewhere (the gateway sees no socket).
        ip: c.req.header('cf-connecting-ip')?.slice(0, 64) ?? null,
        userAgent: c.req.header('user-agent')?.slice(0, MAX_USER_AGENT) ?? null,
      },
      backgroundFor(c),
    );
  };
}
