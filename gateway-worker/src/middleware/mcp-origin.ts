import { checkMcpOrigin } from '@sluice/shared/mcp/gateway';
import type { MiddlewareHandler } from 'hono';
import type { GatewayEnv } from '../types';

/**
 * DNS-rebinding protection for /mcp (mcp/gateway/origin-policy.ts). Runs before
 * authentication, so a page on another site learns nothing, not even that a key is needed.
 */
export function guardMcpOrigin(): MiddlewareHandler<GatewayEnv> {
  return async function guardMcpOriginMiddleware(c, next) {
    checkMcpOrigin({ host: c.req.header('host'), origin: c.req.header('origin') }, c.get('deps').mcpOrigins);
    await next();
  };
}
