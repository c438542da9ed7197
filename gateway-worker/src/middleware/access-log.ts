import type { Principal } from '@sluice/shared/auth/gateway';
import { GATEWAY_PORT, startAccessRecord } from '@sluice/shared/logs/server';
import type { MiddlewareHandler } from 'hono';
import { backgroundFor } from '../background';
import type { GatewayEnv } from '../types';

/**
 * One access-log record per request (shared/logs/server/access-record.ts): method, the path as
 * sent, status, the authenticated user, time to the response headers, client IP and user
 * agent. The port is the gateway's default 3000, whatever it listens on. Nothing is
 * awaited; the record joins a batch, which the request that opened it keeps alive (waitUntil).
 */
export function recordAccessLog(): MiddlewareHandler<GatewayEnv> {
  return async function accessLogMiddleware(c, next) {
    const finish = startAccessRecord();
    await next();
    const principal = c.get('principal') as Principal | undefined;
    void c.get('deps').recordAccess(
      finish({
        port: GATEWAY_PORT,
        method: c.req.method,
        url: c.req.url,
        statusCode: c.res.status,
        userId: principal?.userId ?? null,
        // Set by Cloudflare in front of Workers; absent elsewhere (the gateway sees no socket).
        ip: c.req.header('cf-connecting-ip'),
        userAgent: c.req.header('user-agent'),
      }),
      backgroundFor(c),
    );
  };
}
