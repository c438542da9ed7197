import { createRoute } from '@hono/zod-openapi';
import { pageOf, pageQuerySchema } from '@sluice/shared/db';
import { listUserConnections, writeAudit } from '@sluice/shared/db/repos';
import { AppError, badRequest } from '@sluice/shared/http';
import { startUpstreamConnect } from '@sluice/shared/mcp/oauth';
import { connectingServerOf, requireMcpServer } from '@sluice/shared/mcp/registry';
import { requireJwt } from '../middleware/require-jwt';
import { upstreamOAuth } from '../oauth/upstream-deps';
import {
  bearerSecurity,
  createRouter,
  errorResponses,
  IdParams,
  jsonResponse,
  noContent,
  PAGING,
} from '../openapi';
import { ConnectStartSchema, McpConnectionPageSchema } from '../schemas/oauth';
import { auditActor } from './audit-actor';

const common = { tags: ['mcp'], security: bearerSecurity };

const listRoute = createRoute({
  ...common,
  middleware: [requireJwt()] as const,
  method: 'get',
  path: '/',
  summary: 'MCP servers where each user signs in (auth_type oauth), by name, and whether you have',
  description: PAGING,
  request: { query: pageQuerySchema },
  responses: {
    200: jsonResponse(McpConnectionPageSchema, 'One page of your connections and the total'),
    ...errorResponses(401, 422),
  },
});

const connectRoute = createRoute({
  ...common,
  middleware: [requireJwt()] as const,
  method: 'post',
  path: '/{id}',
  summary: "Start connecting your account: the server's sign-in URL to send the browser to",
  request: { params: IdParams },
  responses: {
    200: jsonResponse(ConnectStartSchema, 'Where to sign in'),
    ...errorResponses(400, 401, 404, 502),
  },
});

const disconnectRoute = createRoute({
  ...common,
  middleware: [requireJwt()] as const,
  method: 'delete',
  path: '/{id}',
  summary: 'Forget your tokens for the server (its calls then ask you to connect again)',
  request: { params: IdParams },
  responses: { 204: noContent, ...errorResponses(401, 404) },
});

const iso = (d: Date | null) => d?.toISOString() ?? null;

export const mcpConnectionsRoutes = createRouter()
  .openapi(listRoute, async (c) => {
    const page = c.req.valid('query');
    const { rows, total } = await listUserConnections(c.var.deps.db, c.var.auth.userId, page);
    const connections = rows.map((r) => ({
      server_id: r.serverId,
      server_name: r.serverName,
      endpoint_url: r.endpointUrl,
      connected: r.connectedAt !== null,
      connected_at: iso(r.connectedAt),
      expires_at: iso(r.expiresAt),
    }));
    return c.json(pageOf(page, total, connections), 200);
  })
  .openapi(connectRoute, async (c) => {
    const server = await requireMcpServer(c.var.deps.db, c.req.valid('param').id);
    if (server.authType !== 'oauth')
      throw badRequest(`${server.name} is not a server where each user signs in`);
    const connecting = await connectingServerOf(server, c.var.deps.secrets);
    const url = await startUpstreamConnect(connecting, c.var.auth.userId, upstreamOAuth(c)).catch(
      (error: unknown) => {
        throw new AppError(502, `${server.name}: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
    return c.json({ authorization_url: url }, 200);
  })
  .openapi(disconnectRoute, async (c) => {
    const server = await requireMcpServer(c.var.deps.db, c.req.valid('param').id);
    if (await upstreamOAuth(c).store.deleteTokens(server.id, c.var.auth.userId)) {
      await writeAudit(c.var.deps.db, {
        ...auditActor(c),
        action: 'mcp_connection.disconnect',
        resourceType: 'mcp_server',
        resourceId: server.id,
        details: { name: server.name },
      });
    }
    return c.body(null, 204);
  });
