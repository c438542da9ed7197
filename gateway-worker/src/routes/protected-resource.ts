import { mcpResourceOf, protectedResourceMetadata } from '@sluice/shared/auth/oauth';
import { AppError } from '@sluice/shared/http';
import { type Context, Hono } from 'hono';
import type { GatewayEnv } from '../types';

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/**
 * RFC 9728 metadata of /mcp and of each /mcp/{server}, at the path the resource's own path is
 * appended to. Open to every origin: browser-based MCP clients read it before signing in.
 */
function metadata(c: Context<GatewayEnv>) {
  const server = c.get('deps').mcpOAuth;
  if (server.issuer === null)
    throw new AppError(
      404,
      'OAuth is not configured for /mcp: set SLUICE_CONSOLE_URL (use an API key meanwhile)',
    );
  const resourceUrl = new URL(c.req.url);
  resourceUrl.pathname = resourceUrl.pathname.slice(WELL_KNOWN.length);
  c.header('Access-Control-Allow-Origin', '*');
  return c.json(
    protectedResourceMetadata(mcpResourceOf(resourceUrl.toString(), server.gatewayUrl), server.issuer),
  );
}

export const protectedResourceRoutes = new Hono<GatewayEnv>()
  .get('/mcp', metadata)
  .get('/mcp/:server', metadata);
