import { type AuthOptions, authenticateGatewayRequest } from '@sluice/shared/gateway/authenticate';
import type { MiddlewareHandler } from 'hono';
import { backgroundFor } from '../background';
import type { GatewayEnv } from '../types';

/**
 * Anthropic's SDKs send the key as `x-api-key` instead of a bearer token; both are accepted
 * so those clients work unmodified. An Authorization header wins when both are present.
 */
function credentialHeader(authorization: string | undefined, apiKey: string | undefined): string | undefined {
  if (authorization !== undefined || apiKey === undefined) return authorization;
  return `Bearer ${apiKey.trim()}`;
}

/** Shared by every /v1 and /mcp route: API key, or JWT where the route allows it. */
export function authenticate(options: AuthOptions = { allowJwt: true }): MiddlewareHandler<GatewayEnv> {
  return async function authenticateMiddleware(c, next) {
    const principal = await authenticateGatewayRequest(
      c.var.deps.auth,
      credentialHeader(c.req.header('authorization'), c.req.header('x-api-key')),
      options,
      backgroundFor(c),
    );
    c.set('principal', principal);
    await next();
  };
}
