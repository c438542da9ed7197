import { createRoute } from '@hono/zod-openapi';
import { pageQuerySchema } from '@sluice/shared/db';
import { listUserConnections, writeAudit } from '@sluice/shared/db/repos';
import { AppError, badRequest } from '@sluice/shared/http';
import { connectWithIdToken, IdTokenUnusable, startUpstreamConnect } from '@sluice/shared/mcp/oauth';
import { connectingServerOf, requireMcpServer, toMcpServerTarget } from '@sluice/shared/mcp/registry';
import { requireJwt } from '../middleware/require-jwt';
import { upstreamOAuth } from '../oauth/upstream-deps';
import {
  bearerSecurity,
  createRouter,
  errorResponses,
  IdParams,
  jsonBody,
  jsonResponse,
  listResponse,
  noContent,
  PAGING,
  sendPage,
} from '../openapi';
import {
  ConnectStartSchema,
  IdTokenConnectedSchema,
  IdTokenConnectSchema,
  McpConnectionPageSchema,
} from '../schemas/oauth';
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
    200: listResponse(McpConnectionPageSchema, 'One page of your connections and the total'),
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

const idTokenRoute = createRoute({
  ...common,
  middleware: [requireJwt()] as const,
  method: 'post',
  path: '/{id}/id-token',
  summary:
    'Connect with your ID token (auth_type oauth_token_exchange): exchanged now, and again as tokens expire',
  request: { params: IdParams, body: jsonBody(IdTokenConnectSchema) },
  responses: {
    200: jsonResponse(IdTokenConnectedSchema, 'Connected: the gateway calls the server with your token'),
    ...errorResponses(400, 401, 404, 422, 502),
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
      connect_with: r.authType === 'oauth_token_exchange' ? ('id_token' as const) : ('sign_in' as const),
      connected: r.connectedAt !== null,
      connected_at: iso(r.connectedAt),
      expires_at: iso(r.expiresAt),
    }));
    return sendPage(c, { total, entries: connections });
  })
  .openapi(connectRoute, async (c) => {
    const server = await requireMcpServer(c.var.deps.db, c.req.valid('param').id);
    if (server.authType !== 'oauth')
      throw badRequest(
        server.authType === 'oauth_token_exchange'
          ? `${server.name} connects with your ID token: POST /api/mcp/connections/${server.id}/id-token`
          : `${server.name} is not a server where each user signs in`,
      );
    const connecting = await connectingServerOf(server, c.var.deps.secrets);
    const url = await startUpstreamConnect(connecting, c.var.auth.userId, upstreamOAuth(c)).catch(
      (error: unknown) => {
        throw new AppError(502, `${server.name}: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
    return c.json({ authorization_url: url }, 200);
  })
  .openapi(idTokenRoute, async (c) => {
    const row = await requireMcpServer(c.var.deps.db, c.req.valid('param').id);
    if (row.authType !== 'oauth_token_exchange')
      throw badRequest(`${row.name} does not take ID tokens (auth_type ${row.authType})`);
    const target = await toMcpServerTarget(row, c.var.deps.secrets);
    const exchange = target.exchange as NonNullable<typeof target.exchange>;
    const connected = await connectWithIdToken(
      { id: row.id, name: row.name, endpointUrl: row.endpointUrl, exchange },
      c.var.auth.userId,
      c.req.valid('json').id_token,
      upstreamOAuth(c),
    ).catch((error: unknown) => {
      if (error instanceof IdTokenUnusable) throw badRequest(error.message);
      throw new AppError(502, error instanceof Error ? error.message : String(error));
    });
    await writeAudit(c.var.deps.db, {
      ...auditActor(c),
      action: 'mcp_connection.connect',
      resourceType: 'mcp_server',
      resourceId: row.id,
      details: { name: row.name, method: 'id_token', subject: connected.subject },
    });
    return c.json(
      { server_id: row.id, subject: connected.subject, expires_at: connected.expiresAt.toISOString() },
      200,
    );
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
