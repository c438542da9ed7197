import { bumpRoutingVersion } from '@sluice/shared/routing/route-cache';
import type { MiddlewareHandler } from 'hono';
import type { ConsoleEnv } from '../types';

/**
 * After a successful change to providers or models, tells every gateway isolate to drop its
 * cached routes. The change is committed already; if Redis is down the gateways catch up
 * when their cache TTL (5 s) runs out, so the failure is logged, not returned.
 */
export function bumpRoutingVersionAfterChange(): MiddlewareHandler<ConsoleEnv> {
  return async function bumpRoutingVersionMiddleware(c, next) {
    await next();
    if (c.req.method === 'GET' || c.res.status >= 400) return;
    await bumpRoutingVersion(c.var.deps.redis).catch((error: unknown) => {
      console.warn(
        JSON.stringify({
          level: 'WARN',
          target: 'routing',
          message: 'version bump failed',
          error: String(error),
        }),
      );
    });
  };
}
