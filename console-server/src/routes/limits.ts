import { createRoute } from '@hono/zod-openapi';
import {
  authorizeLimitsAccess,
  type LimitsSubjectRef,
  type Permission,
  roleIdsInputSchema,
} from '@sluice/shared/access';
import { notFound } from '@sluice/shared/http';
import {
  deleteSubjectBudgets,
  deleteSubjectRules,
  getSubjectBudgets,
  getSubjectRules,
  getSubjectUsage,
  getUserRoles,
  type LimitsSubject,
  replaceBudgetsInputSchema,
  replaceRulesInputSchema,
  replaceSubjectBudgets,
  replaceSubjectRules,
  replaceUserRoleIds,
} from '@sluice/shared/limits-admin';
import type { MiddlewareHandler } from 'hono';
import { requireAdmin } from '../middleware/require-admin';
import { requireJwt } from '../middleware/require-jwt';
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
  SubjectBudgetsSchema,
  SubjectParams,
  SubjectRulesSchema,
  SubjectUsageSchema,
  UserRolesSchema,
} from '../schemas/limits';
import type { ConsoleEnv } from '../types';
import { auditActor } from './audit-actor';

const common = { tags: ['limits'], security: bearerSecurity };

const SCOPE_NOTE =
  'subject is api_key or user (for a user: their own overrides, applied after the limits of their roles). ' +
  'Needs rate_limits:read to read, rate_limits:write to change, in a scope covering the subject: admins ' +
  'always; a global grant covers every key and user, a team grant the team’s members and their keys, an ' +
  'own grant the caller’s own keys. 404 when the subject does not exist, then 403 outside every scope.';

const RULES_NOTE =
  'At most one rule per kind (requests, tokens) and window (1m, 5m, 1h, 5h, 1d, 1w); limit an integer ' +
  'from 0 to 1e12.';
const BUDGETS_NOTE = 'At most one budget per period (daily, weekly, monthly); limit_tokens from 0 to 1e12.';

/**
 * Signed-in caller (401), existing subject (404, malformed ids included), then a grant covering
 * it (403); all before the body is validated, so a caller without access never learns more.
 */
function requireLimitsAccess(need: Permission): MiddlewareHandler<ConsoleEnv> {
  const jwt = requireJwt();
  return async function requireLimitsAccessMiddleware(c, next) {
    await jwt(c, async () => {
      const params = SubjectParams.safeParse(c.req.param());
      if (!params.success) throw notFound('Not found');
      const subject = { type: params.data.subject, id: params.data.id };
      await authorizeLimitsAccess(c.var.deps.db, c.var.auth, subject, need);
      await next();
    });
  };
}

function subjectOf(params: { subject: LimitsSubject; id: string }): LimitsSubjectRef {
  return { type: params.subject, id: params.id };
}

const getRulesRoute = createRoute({
  ...common,
  middleware: [requireLimitsAccess('rate_limits:read')] as const,
  method: 'get',
  path: '/{subject}/{id}/rules',
  summary: 'Sliding-window rate-limit rules of an API key or a user',
  description: SCOPE_NOTE,
  request: { params: SubjectParams },
  responses: { 200: jsonResponse(SubjectRulesSchema, 'The rules'), ...errorResponses(401, 403, 404) },
});

const putRulesRoute = createRoute({
  ...common,
  middleware: [requireLimitsAccess('rate_limits:write')] as const,
  method: 'put',
  path: '/{subject}/{id}/rules',
  summary: 'Replace the whole rule list ([] clears it)',
  description: `${SCOPE_NOTE} ${RULES_NOTE}`,
  request: { params: SubjectParams, body: jsonBody(replaceRulesInputSchema) },
  responses: {
    200: jsonResponse(SubjectRulesSchema, 'The new rules'),
    ...errorResponses(400, 401, 403, 404, 422),
  },
});

const deleteRulesRoute = createRoute({
  ...common,
  middleware: [requireLimitsAccess('rate_limits:write')] as const,
  method: 'delete',
  path: '/{subject}/{id}/rules',
  summary: 'Remove every rule of the subject',
  description: SCOPE_NOTE,
  request: { params: SubjectParams },
  responses: { 204: noContent, ...errorResponses(401, 403, 404) },
});

const getBudgetsRoute = createRoute({
  ...common,
  middleware: [requireLimitsAccess('rate_limits:read')] as const,
  method: 'get',
  path: '/{subject}/{id}/budgets',
  summary: 'Calendar budgets (weighted tokens, UTC periods) of an API key or a user',
  description: SCOPE_NOTE,
  request: { params: SubjectParams },
  responses: { 200: jsonResponse(SubjectBudgetsSchema, 'The budgets'), ...errorResponses(401, 403, 404) },
});

const putBudgetsRoute = createRoute({
  ...common,
  middleware: [requireLimitsAccess('rate_limits:write')] as const,
  method: 'put',
  path: '/{subject}/{id}/budgets',
  summary: 'Replace the whole budget list ([] clears it)',
  description: `${SCOPE_NOTE} ${BUDGETS_NOTE}`,
  request: { params: SubjectParams, body: jsonBody(replaceBudgetsInputSchema) },
  responses: {
    200: jsonResponse(SubjectBudgetsSchema, 'The new budgets'),
    ...errorResponses(400, 401, 403, 404, 422),
  },
});

const deleteBudgetsRoute = createRoute({
  ...common,
  middleware: [requireLimitsAccess('rate_limits:write')] as const,
  method: 'delete',
  path: '/{subject}/{id}/budgets',
  summary: 'Remove every budget of the subject',
  description: SCOPE_NOTE,
  request: { params: SubjectParams },
  responses: { 204: noContent, ...errorResponses(401, 403, 404) },
});

const getUsageRoute = createRoute({
  ...common,
  middleware: [requireLimitsAccess('rate_limits:read')] as const,
  method: 'get',
  path: '/{subject}/{id}/usage',
  summary: 'Live limit counters of an API key or a user',
  description:
    `${SCOPE_NOTE} Read from the counters the gateway refuses requests with. For a key: what GET /v1/usage ` +
    'answers that key (its own counters when it has limits of its own, else its owner’s); for a user: their ' +
    'effective limits and their usage over all keys. 503 when the counters cannot be read.',
  request: { params: SubjectParams },
  responses: { 200: jsonResponse(SubjectUsageSchema, 'The counters'), ...errorResponses(401, 403, 404, 503) },
});

const getUserRolesRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'get',
  path: '/user/{id}/roles',
  summary: 'Extra global roles of a user (admin)',
  description: 'Besides these, the role named like the user’s role (users.role) applies, when it exists.',
  request: { params: IdParams },
  responses: { 200: jsonResponse(UserRolesSchema, 'The role ids'), ...errorResponses(401, 403, 404) },
});

const putUserRolesRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'put',
  path: '/user/{id}/roles',
  summary: 'Replace the extra global roles of a user (admin)',
  description: 'Every id must be an existing role: 422 with details[].path role_ids.<index> otherwise.',
  request: { params: IdParams, body: jsonBody(roleIdsInputSchema) },
  responses: {
    200: jsonResponse(UserRolesSchema, 'The new role ids'),
    ...errorResponses(400, 401, 403, 404, 422),
  },
});

export const limitsRoutes = createRouter()
  .openapi(getRulesRoute, async (c) =>
    c.json(await getSubjectRules(c.var.deps.db, subjectOf(c.req.valid('param'))), 200),
  )
  .openapi(putRulesRoute, async (c) => {
    const subject = subjectOf(c.req.valid('param'));
    return c.json(await replaceSubjectRules(c.var.deps, subject, c.req.valid('json'), auditActor(c)), 200);
  })
  .openapi(deleteRulesRoute, async (c) => {
    await deleteSubjectRules(c.var.deps, subjectOf(c.req.valid('param')), auditActor(c));
    return c.body(null, 204);
  })
  .openapi(getBudgetsRoute, async (c) =>
    c.json(await getSubjectBudgets(c.var.deps.db, subjectOf(c.req.valid('param'))), 200),
  )
  .openapi(putBudgetsRoute, async (c) => {
    const subject = subjectOf(c.req.valid('param'));
    return c.json(await replaceSubjectBudgets(c.var.deps, subject, c.req.valid('json'), auditActor(c)), 200);
  })
  .openapi(deleteBudgetsRoute, async (c) => {
    await deleteSubjectBudgets(c.var.deps, subjectOf(c.req.valid('param')), auditActor(c));
    return c.body(null, 204);
  })
  .openapi(getUsageRoute, async (c) => {
    const { db, limiter, logger } = c.var.deps;
    const deps = { db, limiter, now: Date.now, logger: logger.child('limits') };
    return c.json(await getSubjectUsage(deps, subjectOf(c.req.valid('param'))), 200);
  })
  .openapi(getUserRolesRoute, async (c) =>
    c.json(await getUserRoles(c.var.deps.db, c.req.valid('param').id), 200),
  )
  .openapi(putUserRolesRoute, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await replaceUserRoleIds(c.var.deps, id, c.req.valid('json'), auditActor(c)), 200);
  });
