import { createRoute } from '@hono/zod-openapi';
import type { Permission } from '@sluice/shared/access';
import { pageQuerySchema, slicePage } from '@sluice/shared/db';
import { notFound } from '@sluice/shared/http';
import {
  authorizeToolLimitsAccess,
  createToolLimit,
  createToolLimitInputSchema,
  deleteToolLimit,
  listAllToolLimits,
  listSubjectToolLimits,
} from '@sluice/shared/limits-admin';
import type { MiddlewareHandler } from 'hono';
import { requireAdmin } from '../middleware/require-admin';
import { requireJwt } from '../middleware/require-jwt';
import {
  bearerSecurity,
  createRouter,
  errorResponses,
  jsonBody,
  jsonResponse,
  listResponse,
  noContent,
  sendPage,
} from '../openapi';
import {
  SubjectToolLimitsSchema,
  ToolLimitOverviewSchema,
  ToolLimitParams,
  ToolLimitSchema,
  ToolLimitSubjectParams,
} from '../schemas/tool-limits';
import type { ConsoleEnv } from '../types';
import { auditActor } from './audit-actor';

const common = { tags: ['limits'], security: bearerSecurity };

const SCOPE_NOTE =
  'subject is api_key, user (their own, replacing their roles’ limit of the same tool, kind and window) or ' +
  'role (a team’s limits come from its roles). A key’s or user’s tool limits need rate_limits:read to read ' +
  'and rate_limits:write to change, in a scope covering the subject, as its rules do; a role’s are for ' +
  'admins only. 404 when the subject does not exist, then 403.';

const CREATE_NOTE =
  'tool: <server>__<tool>, <server>__* (every tool of the server) or * (every routed tool call); a pattern ' +
  'counts every call it covers together. kind rate with window (1m, 5m, 1h, 5h, 1d, 1w: calls per sliding ' +
  'window) or kind budget with period (daily, weekly, monthly: calls per calendar period, UTC); limit an ' +
  'integer from 0 to 1e12. 409 when the subject has a limit of that tool, kind and window already.';

/** Signed-in caller (401), existing subject (404, malformed ids included), then access (403). */
function requireToolLimitsAccess(need: Permission): MiddlewareHandler<ConsoleEnv> {
  const jwt = requireJwt();
  return async function requireToolLimitsAccessMiddleware(c, next) {
    await jwt(c, async () => {
      const params = ToolLimitSubjectParams.safeParse(c.req.param());
      if (!params.success) throw notFound('Not found');
      const subject = { type: params.data.subject, id: params.data.id };
      await authorizeToolLimitsAccess(c.var.deps.db, c.var.auth, subject, need);
      await next();
    });
  };
}

const listAllRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'get',
  path: '/tool-limits',
  summary: 'Every MCP tool limit of every role, user and API key (admin), a page at a time',
  description: 'By subject type (roles, users, keys), subject name, tool pattern, then window.',
  request: { query: pageQuerySchema },
  responses: {
    200: listResponse(ToolLimitOverviewSchema, 'The tool limits'),
    ...errorResponses(401, 403, 422),
  },
});

const listRoute = createRoute({
  ...common,
  middleware: [requireToolLimitsAccess('rate_limits:read')] as const,
  method: 'get',
  path: '/{subject}/{id}/tool-limits',
  summary: 'MCP tool rate limits and call budgets of an API key, a user or a role',
  description: SCOPE_NOTE,
  request: { params: ToolLimitSubjectParams },
  responses: {
    200: jsonResponse(SubjectToolLimitsSchema, 'The tool limits'),
    ...errorResponses(401, 403, 404),
  },
});

const createToolLimitRoute = createRoute({
  ...common,
  middleware: [requireToolLimitsAccess('rate_limits:write')] as const,
  method: 'post',
  path: '/{subject}/{id}/tool-limits',
  summary: 'Add a tool rate limit or call budget',
  description: `${SCOPE_NOTE} ${CREATE_NOTE}`,
  request: { params: ToolLimitSubjectParams, body: jsonBody(createToolLimitInputSchema) },
  responses: {
    201: jsonResponse(ToolLimitSchema, 'The new tool limit'),
    ...errorResponses(400, 401, 403, 404, 409, 422),
  },
});

const deleteRoute = createRoute({
  ...common,
  middleware: [requireToolLimitsAccess('rate_limits:write')] as const,
  method: 'delete',
  path: '/{subject}/{id}/tool-limits/{limit_id}',
  summary: 'Remove one tool limit of the subject',
  description: `${SCOPE_NOTE} 404 when the subject has no tool limit of that id.`,
  request: { params: ToolLimitParams },
  responses: { 204: noContent, ...errorResponses(401, 403, 404) },
});

const subjectOf = (params: { subject: 'api_key' | 'user' | 'role'; id: string }) => ({
  type: params.subject,
  id: params.id,
});

export const toolLimitsRoutes = createRouter()
  .openapi(listAllRoute, async (c) =>
    sendPage(c, slicePage(c.req.valid('query'), await listAllToolLimits(c.var.deps.db))),
  )
  .openapi(listRoute, async (c) =>
    c.json(await listSubjectToolLimits(c.var.deps.db, subjectOf(c.req.valid('param'))), 200),
  )
  .openapi(createToolLimitRoute, async (c) => {
    const subject = subjectOf(c.req.valid('param'));
    return c.json(await createToolLimit(c.var.deps, subject, c.req.valid('json'), auditActor(c)), 201);
  })
  .openapi(deleteRoute, async (c) => {
    const params = c.req.valid('param');
    await deleteToolLimit(c.var.deps, subjectOf(params), params.limit_id, auditActor(c));
    return c.body(null, 204);
  });
