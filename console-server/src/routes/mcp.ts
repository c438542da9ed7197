import { createRoute } from '@hono/zod-openapi';
import { pageQuerySchema } from '@sluice/shared/db';
import { mcpLogSchema } from '@sluice/shared/logs/mcp';
import type { McpServerTarget } from '@sluice/shared/mcp';
import { targetForMachine, targetForUser } from '@sluice/shared/mcp/oauth';
import {
  createMcpServer,
  createMcpServerInputSchema,
  createMcpVirtualServer,
  createMcpVirtualServerInputSchema,
  deleteMcpServer,
  deleteMcpVirtualServer,
  discoverMcpTools,
  getMcpServer,
  getMcpVirtualServer,
  listMcpServers,
  listMcpTools,
  listMcpVirtualServers,
  updateMcpServer,
  updateMcpServerInputSchema,
  updateMcpVirtualServer,
  updateMcpVirtualServerInputSchema,
} from '@sluice/shared/mcp/registry';
import { foundFirst, pathId } from '../middleware/found-first';
import { requireAdmin } from '../middleware/require-admin';
import { requireJwt } from '../middleware/require-jwt';
import { issuerOf } from '../oauth/server-deps';
import { machineTokens, upstreamOAuth } from '../oauth/upstream-deps';
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
  McpDiscoverySchema,
  McpLogPageSchema,
  type McpLogQueryParams,
  McpLogQuerySchema,
  McpServerListItemSchema,
  McpServerPageSchema,
  McpServerSchema,
  McpToolPageSchema,
  McpToolQuerySchema,
  McpVirtualServerPageSchema,
  McpVirtualServerSchema,
} from '../schemas/mcp';
import { auditActor } from './audit-actor';

const common = { tags: ['mcp'], security: bearerSecurity };

/** 404 before 422: an unknown id with a bad body is not found (middleware/found-first). */
const serverFound = foundFirst((c) => getMcpServer(c.var.deps.db, pathId(c)));

const AUTH_NOTE =
  'auth_type bearer sends Authorization: Bearer <auth_secret>; header sends <auth_name>: <auth_secret>; ' +
  'query adds ?<auth_name>=<auth_secret> to every request; oauth sends each user’s own token. ' +
  'oauth_client_credentials and oauth_jwt_bearer send a token Sluice gets for itself from the server’s ' +
  'authorization server: as client oauth_client_id with oauth_client_secret or oauth_private_key (a PKCS#8 PEM ' +
  'signing private_key_jwt assertions), or with the workload JWT in auth_secret (jwt-bearer grant). ' +
  'oauth_token_exchange sends each user’s own token, got from their ID token (enterprise-managed ' +
  'authorization): the identity provider idp_issuer exchanges it, for the client idp_client_id (with ' +
  'idp_client_secret if set), for an identity assertion grant that Sluice presents as client oauth_client_id. ' +
  'Secrets and keys are encrypted at rest and never returned.';

const listRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'get',
  path: '/servers',
  summary: 'Registered MCP servers by name, with their tool counts',
  description: PAGING,
  request: { query: pageQuerySchema },
  responses: {
    200: listResponse(McpServerPageSchema, 'One page and the total'),
    ...errorResponses(401, 403, 422),
  },
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
    'an auth type without auth_secret (none, oauth, oauth_client_credentials) drops it.',
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

const virtualFound = foundFirst((c) => getMcpVirtualServer(c.var.deps.db, pathId(c)));

const VIRTUAL_NOTE =
  'A virtual server is served at /mcp/{name}: exactly its listed tools that exist on active servers, under ' +
  'their <server>__<tool> names, with empty resource and prompt lists. Its name is unique among registered ' +
  'and virtual servers (409). A listed tool that does not exist yet is accepted and served once it does.';

const listVirtualRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'get',
  path: '/virtual-servers',
  summary: 'Virtual MCP servers (named, curated sets of tools), by name',
  description: PAGING,
  request: { query: pageQuerySchema },
  responses: {
    200: listResponse(McpVirtualServerPageSchema, 'One page and the total'),
    ...errorResponses(401, 403, 422),
  },
});

const createVirtualRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'post',
  path: '/virtual-servers',
  summary: 'Create a virtual MCP server',
  description: VIRTUAL_NOTE,
  request: { body: jsonBody(createMcpVirtualServerInputSchema) },
  responses: {
    201: jsonResponse(McpVirtualServerSchema, 'The new virtual server'),
    ...errorResponses(400, 401, 403, 409, 422),
  },
});

const getVirtualRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'get',
  path: '/virtual-servers/{id}',
  summary: 'One virtual MCP server',
  request: { params: IdParams },
  responses: {
    200: jsonResponse(McpVirtualServerSchema, 'The virtual server'),
    ...errorResponses(401, 403, 404),
  },
});

const updateVirtualRoute = createRoute({
  ...common,
  middleware: [requireAdmin(), virtualFound] as const,
  method: 'patch',
  path: '/virtual-servers/{id}',
  summary: "Change a virtual server's description, tools or active state",
  description: 'name cannot change (clients are configured with its URL). tools replaces the whole list.',
  request: { params: IdParams, body: jsonBody(updateMcpVirtualServerInputSchema) },
  responses: {
    200: jsonResponse(McpVirtualServerSchema, 'The virtual server'),
    ...errorResponses(400, 401, 403, 404, 422),
  },
});

const deleteVirtualRoute = createRoute({
  ...common,
  middleware: [requireAdmin(), virtualFound] as const,
  method: 'delete',
  path: '/virtual-servers/{id}',
  summary: 'Delete a virtual MCP server (the tools and their servers stay)',
  request: { params: IdParams },
  responses: { 204: noContent, ...errorResponses(401, 403, 404) },
});

const toolsRoute = createRoute({
  ...common,
  middleware: [requireJwt()] as const,
  method: 'get',
  path: '/tools',
  summary: 'Every discovered tool across servers, by server then name (any signed-in user)',
  description: `Filters: q (case-insensitive substring of the name or description), server (exact name). ${PAGING}`,
  request: { query: McpToolQuerySchema },
  responses: {
    200: listResponse(McpToolPageSchema, 'One page and the total'),
    ...errorResponses(401, 422),
  },
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
  .openapi(listRoute, async (c) => sendPage(c, await listMcpServers(c.var.deps.db, c.req.valid('query'))))
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
    const machine = machineTokens(c);
    const deps = {
      ...c.var.deps,
      connector: c.var.deps.mcpConnector,
      timeoutMs: c.var.deps.mcpTimeoutMs,
      forUser: async (target: McpServerTarget, userId: string) =>
        targetForUser(await targetForMachine(target, machine), userId, oauth, issuerOf(c)),
    };
    return c.json(await discoverMcpTools(deps, c.req.valid('param').id, auditActor(c)), 200);
  })
  .openapi(listVirtualRoute, async (c) =>
    sendPage(c, await listMcpVirtualServers(c.var.deps.db, c.req.valid('query'))),
  )
  .openapi(createVirtualRoute, async (c) =>
    c.json(await createMcpVirtualServer(c.var.deps, c.req.valid('json'), auditActor(c)), 201),
  )
  .openapi(getVirtualRoute, async (c) =>
    c.json(await getMcpVirtualServer(c.var.deps.db, c.req.valid('param').id), 200),
  )
  .openapi(updateVirtualRoute, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await updateMcpVirtualServer(c.var.deps, id, c.req.valid('json'), auditActor(c)), 200);
  })
  .openapi(deleteVirtualRoute, async (c) => {
    await deleteMcpVirtualServer(c.var.deps, c.req.valid('param').id, auditActor(c));
    return c.body(null, 204);
  })
  .openapi(toolsRoute, async (c) => {
    const query = c.req.valid('query');
    return sendPage(c, await listMcpTools(c.var.deps.db, { q: query.q, server: query.server }, query));
  })
  .openapi(logsRoute, async (c) => {
    const query = c.req.valid('query');
    const { total, entries } = await c.var.deps.mcpLogs.list(mcpLogFilter(query));
    return c.json(
      { total, offset: query.offset, limit: query.limit, entries: entries.map(mcpLogSchema.toView) },
      200,
    );
  });
