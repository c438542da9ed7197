import { CONSOLE_PORT, startAccessRecord } from '@sluice/shared/logs/server';
import type { MiddlewareHandler } from 'hono';
import type { ConsoleEnv } from '../types';

/**
 * One access-log record per request (shared/logs/server/access-record.ts): method, the path as
 * sent, status, the signed-in user (requireJwt's claims) when there is one, time to the
 * response, and the client IP and user agent as requestMeta determined them. The record joins
 * a batch; nothing waits for it (Node keeps running the write). recordAccess stamps the port the
 * console listens on (logs/server/wiring.ts).
 *
 * Not recorded: the web UI's own asset loads (a file of its build answered under 400: scripts,
 * styles, icons), a dozen per page view that would bury the API calls. The page itself
 * (index.html for a UI route) is recorded, and so is a failed asset request.
 */
export function recordAccessLog(): MiddlewareHandler<ConsoleEnv> {
  return async function accessLogMiddleware(c, next) {
    const finish = startAccessRecord();
    await next();
    const { deps, meta, auth, uiAsset } = c.var;
    if (uiAsset && c.res.status < 400) return;
    void deps.recordAccess(
      finish({
        port: CONSOLE_PORT,
        method: c.req.method,
        url: c.req.url,
        statusCode: c.res.status,
        userId: auth?.userId ?? null,
        ip: meta?.ipAddress,
        userAgent: meta?.userAgent,
      }),
    );
  };
}
