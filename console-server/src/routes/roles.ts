import { createRoute } from '@hono/zod-openapi';
import {
  createRole,
  createRoleInputSchema,
  deleteRole,
  getRole,
  listRoles,
  updateRole,
  updateRoleInputSchema,
} from '@sluice/shared/access';
import { pageQuerySchema } from '@sluice/shared/db';
import { foundFirst, pathId } from '../middleware/found-first';
import { requireAdmin } from '../middleware/require-admin';
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
import { RolePageSchema, RoleSchema } from '../schemas/limits';
import { auditActor } from './audit-actor';

const common = { tags: ['roles'], security: bearerSecurity };

/** 404 before 422: an unknown id with a bad body is not found (middleware/found-first). */
const roleFound = foundFirst((c) => getRole(c.var.deps.db, pathId(c)));

const RULES_NOTE =
  'rules: at most one per kind (requests, tokens) and window (1m, 5m, 1h, 5h, 1d, 1w); budgets: at most ' +
  'one per period (daily, weekly, monthly); limits are integers from 0 to 1e12. A role named like a user ' +
  'role (admin, operator, user, viewer, service) applies to every user with that role; others apply ' +
  'through teams and users’ extra roles.';

const listRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'get',
  path: '/',
  summary: 'All limit-granting roles by name, with their rules and budgets',
  description: PAGING,
  request: { query: pageQuerySchema },
  responses: {
    200: listResponse(RolePageSchema, 'One page and the total'),
    ...errorResponses(401, 403, 422),
  },
});

const createRoleRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'post',
  path: '/',
  summary: 'Create a role, optionally with rules and budgets',
  description: RULES_NOTE,
  request: { body: jsonBody(createRoleInputSchema) },
  responses: {
    201: jsonResponse(RoleSchema, 'The new role'),
    ...errorResponses(400, 401, 403, 409, 422),
  },
});

const getRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'get',
  path: '/{id}',
  summary: 'One role',
  request: { params: IdParams },
  responses: { 200: jsonResponse(RoleSchema, 'The role'), ...errorResponses(401, 403, 404) },
});

const updateRoute = createRoute({
  ...common,
  middleware: [requireAdmin(), roleFound] as const,
  method: 'patch',
  path: '/{id}',
  summary: 'Rename, describe, or replace the rules or budgets (each list, when given, replaces the old one)',
  description: RULES_NOTE,
  request: { params: IdParams, body: jsonBody(updateRoleInputSchema) },
  responses: {
    200: jsonResponse(RoleSchema, 'The updated role'),
    ...errorResponses(400, 401, 403, 404, 409, 422),
  },
});

const deleteRoute = createRoute({
  ...common,
  middleware: [requireAdmin(), roleFound] as const,
  method: 'delete',
  path: '/{id}',
  summary: 'Delete a role: detached from users and teams, its rules and budgets removed',
  request: { params: IdParams },
  responses: { 204: noContent, ...errorResponses(401, 403, 404) },
});

export const rolesRoutes = createRouter()
  .openapi(listRoute, async (c) => sendPage(c, await listRoles(c.var.deps.db, c.req.valid('query'))))
  .openapi(createRoleRoute, async (c) =>
    c.json(await createRole(c.var.deps, c.req.valid('json'), auditActor(c)), 201),
  )
  .openapi(getRoute, async (c) => c.json(await getRole(c.var.deps.db, c.req.valid('param').id), 200))
  .openapi(updateRoute, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await updateRole(c.var.deps, id, c.req.valid('json'), auditActor(c)), 200);
  })
  .openapi(deleteRoute, async (c) => {
    await deleteRole(c.var.deps, c.req.valid('param').id, auditActor(c));
    return c.body(null, 204);
  });
