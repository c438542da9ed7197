import { MCP_VERSION_KEY } from '@sluice/shared/mcp/gateway/catalog';
import { ROUTING_VERSION_KEY } from '@sluice/shared/routing/route-cache';
import { bumpVersion } from '@sluice/shared/stores/versioned-cache';
import type { MiddlewareHandler } from 'hono';
import type { ConsoleEnv } from '../types';

/**
 * After a successful change, tells every gateway isolate to drop what it caches of it (the
 * counter `versionKey`). The change is committed already; if Redis is down the gateways catch
 * up when their cache TTL (5 s) runs out, so the failure is logged, not returned.
 */
function bumpVersionAfterChange(versionKey: string, target: string): MiddlewareHandler<ConsoleEnv> {
  return async function bumpVersionMiddleware(c, next) {
    await next();
    if (c.req.method === 'GET' || c.res.status >= 400) return;
    await bumpVersion(c.var.deps.redis, versionKey).catch((error: unknown) => {
      c.var.deps.logger.child(target).warn('version bump failed', { error: String(error) });
    });
  };
}

/** Providers and models: the gateways' cached routes. */
export const bumpRoutingVersionAfterChange = (): MiddlewareHandler<ConsoleEnv> =>
  bumpVersionAfterChange(ROUTING_VERSION_KEY, 'routing');

/** MCP servers and their tools: the gateways' /mcp catalog. */
export const bumpMcpVersionAfterChange = (): MiddlewareHandler<ConsoleEnv> =>
  bumpVersionAfterChange(MCP_VERSION_KEY, 'mcp');
