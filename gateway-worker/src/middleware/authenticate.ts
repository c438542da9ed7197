import type { Principal } from '@sluice/shared/auth/gateway';
import { type AuthOptions, authenticateGatewayRequest } from '@sluice/shared/auth/gateway';
import { mcpChallenge, mcpResourceOf, principalFromAccessToken } from '@sluice/shared/auth/oauth';
import { AppError } from '@sluice/shared/http';
import type { Context, MiddlewareHandler } from 'hono';
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

/** Authenticates the request's credentials as the route's options say. */
export function principalOf(c: Context<GatewayEnv>, options: AuthOptions): Promise<Principal> {
  return authenticateGatewayRequest(
    c.get('deps').auth,
    credentialHeader(c.req.header('authorization'), c.req.header('x-api-key')),
    options,
    backgroundFor(c),
  );
}

/**
 * Shared by every /v1 and /mcp route: API key, or JWT where the route allows it. On the
 * model endpoints (`admittedPaths`) the admission round trip checks the key's version, so
 * the key record is taken from the isolate as it is.
 */
export function authenticate(
  options: AuthOptions = { allowJwt: true },
  admittedPaths: ReadonlySet<string> = new Set(),
): MiddlewareHandler<GatewayEnv> {
  const admitted: AuthOptions = { ...options, checkedByAdmission: true };
  return async function authenticateMiddleware(c, next) {
    c.set('principal', await principalOf(c, admittedPaths.has(c.req.path) ? admitted : options));
    await next();
  };
}

/**
 * /mcp and /mcp/{server}: an API key, a console token, or an OAuth access token for exactly
 * this resource. A refusal tells the client where the resource's metadata is, so it can sign
 * the user in (MCP authorization; RFC 9728 § 5.1).
 */
export function authenticateMcp(): MiddlewareHandler<GatewayEnv> {
  return async function authenticateMcpMiddleware(c, next) {
    const server = c.get('deps').mcpOAuth;
    const resource = mcpResourceOf(c.req.url, server.gatewayUrl);
    try {
      const accessToken = (token: string) => principalFromAccessToken(token, resource, server);
      c.set('principal', await principalOf(c, { allowJwt: true, accessToken }));
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 401 || server.issuer === null) throw error;
      const presented = (c.req.header('authorization') ?? c.req.header('x-api-key')) !== undefined;
      throw new AppError(401, error.message, {
        headers: { 'WWW-Authenticate': mcpChallenge(resource, presented) },
      });
    }
    await next();
  };
}
