import type { Principal } from '../gateway/principal';
import type { McpAccessTokens } from './access-token';
import { MCP_SCOPE } from './access-token';
import { protectedResourceMetadataUrl } from './metadata';

/** The gateway as an OAuth protected resource for /mcp and /mcp/{server} (RFC 9728, RFC 6750). */
export interface McpResourceServer {
  /** The authorization server (SLUICE_CONSOLE_URL); null: no OAuth on /mcp, keys and console tokens only. */
  issuer: string | null;
  /** SLUICE_GATEWAY_URL; null: the origin each request came to. */
  gatewayUrl: string | null;
  tokens: McpAccessTokens;
  /** Whether the grant was revoked (its access tokens are refused before they expire). */
  isRevoked(grantId: string): Promise<boolean>;
}

/** The resource a /mcp request is for: the gateway's URL and the path, without a trailing slash. */
export function mcpResourceOf(requestUrl: string, gatewayUrl: string | null): string {
  const url = new URL(requestUrl);
  const base = gatewayUrl ?? url.origin;
  return `${base}${url.pathname.replace(/\/+$/, '')}`;
}

/** WWW-Authenticate of a 401 on /mcp: where the client learns how to sign in. */
export function mcpChallenge(resource: string, invalidToken: boolean): string {
  const error = invalidToken ? ', error="invalid_token"' : '';
  return `Bearer resource_metadata="${protectedResourceMetadataUrl(resource)}", scope="${MCP_SCOPE}"${error}`;
}

/** The user an access token for `resource` acts for; null when it is not a valid one. */
export async function principalFromAccessToken(
  token: string,
  resource: string,
  server: McpResourceServer,
): Promise<Principal | null> {
  if (server.issuer === null) return null;
  const claims = await server.tokens.verify(token, { issuer: server.issuer, audience: resource });
  if (!claims || !claims.scope.split(' ').includes(MCP_SCOPE)) return null;
  if (await server.isRevoked(claims.grantId)) return null;
  return { kind: 'user', userId: claims.userId, role: claims.role };
}
