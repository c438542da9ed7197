import { createRoute } from '@hono/zod-openapi';
import { mcpLogSchema } from '@sluice/shared/logs/mcp/log-columns';
import { targetForUser } from '@sluice/shared/mcp/oauth/user-target';
import type { McpServerTarget } from '@sluice/shared/mcp/ports';
import { discoverMcpTools } from '@sluice/shared/mcp/registry/discover';
import {
  createMcpServer,
  deleteMcpServer,
  getMcpServer,
  listMcpServers,
  listMcpTools,
  updateMcpServer,
} from '@sluice/shared/mcp/registry/registry';
import { createMcpServerInputSchema, updateMcpServerInputSchema } from '@sluice/shared/mcp/registry/schemas';
import { foundFirst, pathId } from '../middleware/found-first';
import { requireAdmin } from '../middleware/require-admin';
import { requireJwt } from '../middleware/require-jwt';
import { issuerOf } from '../oauth/server-deps';
import { upstreamOAuth } from '../oauth/upstream-deps';
import {
  bearerSecurity,
  createRouter,
  errorResponses,
  IdParams,
  jsonBody,
  jsonResponse,
  noContent,
} from '../openapi';
import {
  McpDiscoverySchema,
  McpLogPageSchema,
  type McpLogQueryParams,
  McpLogQuerySchema,
  McpServerListItemSchema,
  McpServerListSchema,
  McpServerSchema,
  McpToolListSchema,
} from '../schemas/mcp';
import { auditActor } from './audit-actor';

const common = { tags: ['mcp'], security: bearerSecurity };

/** 404 before 422: an unknown id with a bad body is not found (middleware/found-first). */
const serverFound = foundFirst((c) => getMcpServer(c.var.deps.db, pathId(c)));

const AUTH_NOTE =
  'auth_type bearer sends Authorization: Bearer <auth_secret>; header sends <auth_name>: <auth_secret>; ' +
  'query adds ?<auth_name>=<auth_secret> to every request. auth_secret is encrypted at rest and never returned.';

const listRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'get',
  path: '/servers',
  summary: 'Registered MCP servers with their tool counts',
  responses: { 200: jsonResponse(McpServerListSchema, 'Servers by name'), ...errorResponses(401, 403) },
});

const createServerRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'post',
  path: '/servers',
  summary: 'Register an MCP server (streamable_http by default, or sse)',
  description: AUTH_NOTE,
  request: { body: jsonBody(createMcpServerInputSchema) },
  responses: {
    201: jsonResponse(McpServerSchema, 'The new server'),
    ...errorResponses(400, 401, 403, 409, 422),
  },
});

const getRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'get',
  path: '/servers/{id}',
  summary: 'One MCP server, as in the list',
  request: { params: IdParams },
  responses: { 200: jsonResponse(McpServerListItemSchema, 'The server'), ...errorResponses(401, 403, 404) },
});

const updateRoute = createRoute({
  ...common,
  middleware: [requireAdmin(), serverFound] as const,
  method: 'patch',
  path: '/servers/{id}',
  summary: 'Change description, endpoint, transport, auth or active state',
  description:
    `${AUTH_NOTE} name cannot change (tools are namespaced by it). Without auth_secret the stored one is kept; ` +
    'auth_type none drops it.',
  request: { params: IdParams, body: jsonBody(updateMcpServerInputSchema) },
  responses: { 200: jsonResponse(McpServerSchema, 'The server'), ...errorResponses(400, 401, 403, 404, 422) },
});

const deleteRoute = createRoute({
  ...common,
  middleware: [requireAdmin(), serverFound] as const,
  method: 'delete',
  path: '/servers/{id}',
  summary: 'Delete an MCP server and its tools',
  request: { params: IdParams },
  responses: { 204: noContent, ...errorResponses(401, 403, 404) },
});

const discoverRoute = createRoute({
  ...common,
  middleware: [requireAdmin(), serverFound] as const,
  method: 'post',
  path: '/servers/{id}/discover',
  summary: 'Connect, initialize, tools/list (every page) and store the tools',
  description:
    'Replaces the stored tools. 502 with the reason when the server cannot be reached; nothing changes then.',
  request: { params: IdParams },
  responses: {
    200: jsonResponse(McpDiscoverySchema, 'What was found'),
    ...errorResponses(401, 403, 404, 502),
  },
});

const toolsRoute = createRoute({
  ...common,
  middleware: [requireJwt()] as const,
  method: 'get',
  path: '/tools',
  summary: 'Every discovered tool across servers (any signed-in user)',
  responses: { 200: jsonResponse(McpToolListSchema, 'Tools by server, then name'), ...errorResponses(401) },
});

const logsRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'get',
  path: '/logs',
  summary: "The gateway's tools/call log, newest (or slowest) first",
  description:
    'Filters combine with AND; tool_name is exact; from/to are inclusive ISO 8601 instants (a bare date ' +
    'is 00:00 UTC). sort_by created_at (default) or duration_ms, always descending, ties by id. ' +
    'limit is 1..200 (default 50; larger is 422, not clamped), offset defaults to 0.',
  request: { query: McpLogQuerySchema },
  responses: {
    200: jsonResponse(McpLogPageSchema, 'One page and the total'),
    ...errorResponses(401, 403, 422),
  },
});

/** The validated query as the store's filter (dates parsed, names camelCased). */
function mcpLogFilter(query: McpLogQueryParams) {
  return {
    userId: query.user_id,
    serverId: query.server_id,
    toolName: query.tool_name,
    status: query.status,
    from: query.from === undefined ? undefined : new Date(query.from),
    to: query.to === undefined ? undefined : new Date(query.to),
    sortBy: query.sort_by,
    limit: query.limit,
    offset: query.offset,
  };
}

export const mcpRoutes = createRouter()
  .openapi(listRoute, async (c) => c.json(await listMcpServers(c.var.deps.db), 200))
  .openapi(createServerRoute, async (c) =>
    c.json(await createMcpServer(c.var.deps, c.req.valid('json'), auditActor(c)), 201),
  )
  .openapi(getRoute, async (c) => c.json(await getMcpServer(c.var.deps.db, c.req.valid('param').id), 200))
  .openapi(updateRoute, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await updateMcpServer(c.var.deps, id, c.req.valid('json'), auditActor(c)), 200);
  })
  .openapi(deleteRoute, async (c) => {
    await deleteMcpServer(c.var.deps, c.req.valid('param').id, auditActor(c));
    return c.body(null, 204);
  })
  .openapi(discoverRoute, async (c) => {
    const oauth = upstreamOAuth(c);
    const deps = {
      ...c.var.deps,
      connector: c.var.deps.mcpConnector,
      timeoutMs: c.var.deps.mcpTimeoutMs,
      forUser: (target: McpServerTarget, userId: string) => targetForUser(target, userId, oauth, issuerOf(c)),
    };
    return c.json(await discoverMcpTools(deps, c.req.valid('param').id, auditActor(c)), 200);
  })
  .openapi(toolsRoute, async (c) => c.json(await listMcpTools(c.var.deps.db), 200))
  .openapi(logsRoute, async (c) => {
    const query = c.req.valid('query');
    const { total, entries } = await c.var.deps.mcpLogs.list(mcpLogFilter(query));
    return c.json(
      { total, offset: query.offset, limit: query.limit, entries: entries.map(mcpLogSchema.toView) },
      200,
    );
  });
