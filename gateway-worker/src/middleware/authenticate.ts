import { type AuthOptions, authenticateGatewayRequest } from '@sluice/shared/gateway/authenticate';
import type { Background } from '@sluice/shared/keys/auth-cache';
import type { Context, MiddlewareHandler } from 'hono';
import type { GatewayEnv } from '../types';

/**
 * Runs work after the response: waitUntil on workerd keeps the isolate alive for it. Under
 * app.request() (tests) there is no execution context and the promise simply runs on.
 */
function backgroundFor(c: Context<GatewayEnv>): Background {
  return (task) => {
    const logged = task.catch((error: unknown) => {
      console.warn(
        JSON.stringify({
          level: 'WARN',
          target: 'gateway',
          message: 'background task failed',
          error: String(error),
        }),
      );
    });
    try {
      c.executionCtx.waitUntil(logged);
    } catch {
      // No ExecutionContext: Hono's getter throws; `logged` already handles its own failure.
    }
  };
}

/** Shared by every /v1 and /mcp route: API key, or JWT where the route allows it. */
export function authenticate(options: AuthOptions = { allowJwt: true }): MiddlewareHandler<GatewayEnv> {
  return async function authenticateMiddleware(c, next) {
    const principal = await authenticateGatewayRequest(
      c.var.deps.auth,
      c.req.header('authorization'),
      options,
      backgroundFor(c),
    );
    c.set('principal', principal);
    await next();
  };
}
