import { createRoute } from '@hono/zod-openapi';
import { pageQuerySchema } from '@sluice/shared/db';
import type { UsersAdminDeps } from '@sluice/shared/users';
import {
  createUser,
  createUserInputSchema,
  deactivateUser,
  getUser,
  listUsers,
  updateUser,
  updateUserInputSchema,
} from '@sluice/shared/users';
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
import { AdminUserPageSchema, AdminUserSchema } from '../schemas/admin';
import { RegisteredUserSchema } from '../schemas/identity';
import type { ConsoleDeps } from '../types';
import { auditActor } from './audit-actor';

const common = { tags: ['users'], security: bearerSecurity };

/** 404 before 422: an unknown id with a bad body is not found (middleware/found-first). */
const userFound = foundFirst((c) => getUser(c.var.deps.db, pathId(c)));

const listRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'get',
  path: '/',
  summary: 'All users, active or not, oldest first',
  description: PAGING,
  request: { query: pageQuerySchema },
  responses: {
    200: listResponse(AdminUserPageSchema, 'One page and the total'),
    ...errorResponses(401, 403, 422),
  },
});

const createUserRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'post',
  path: '/',
  summary: 'Create a user with any role (default user)',
  request: { body: jsonBody(createUserInputSchema) },
  responses: {
    201: jsonResponse(RegisteredUserSchema, 'The new user'),
    ...errorResponses(400, 401, 403, 409, 422),
  },
});

const getRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'get',
  path: '/{id}',
  summary: 'One user',
  request: { params: IdParams },
  responses: { 200: jsonResponse(AdminUserSchema, 'The user'), ...errorResponses(401, 403, 404) },
});

const updateRoute = createRoute({
  ...common,
  middleware: [requireAdmin(), userFound] as const,
  method: 'patch',
  path: '/{id}',
  summary: 'Change display name, role, active state or password',
  description:
    'Deactivating or setting a password ends the user’s sessions (refresh tokens). ' +
    '409 when the change would leave no active admin.',
  request: { params: IdParams, body: jsonBody(updateUserInputSchema) },
  responses: {
    200: jsonResponse(AdminUserSchema, 'The updated user'),
    ...errorResponses(400, 401, 403, 404, 409, 422),
  },
});

const deleteRoute = createRoute({
  ...common,
  middleware: [requireAdmin(), userFound] as const,
  method: 'delete',
  path: '/{id}',
  summary: 'Deactivate a user',
  description:
    'The row is kept (audit history, key ownership). The user can no longer sign in or refresh, ' +
    'and their API keys are refused by the gateway. 409 for the last active admin.',
  request: { params: IdParams },
  responses: { 204: noContent, ...errorResponses(401, 403, 404, 409) },
});

function usersDeps(deps: ConsoleDeps): UsersAdminDeps {
  return { db: deps.db, passwords: deps.passwords, redis: deps.redis, logger: deps.logger };
}

export const adminUsersRoutes = createRouter()
  .openapi(listRoute, async (c) => sendPage(c, await listUsers(c.var.deps.db, c.req.valid('query'))))
  .openapi(createUserRoute, async (c) =>
    c.json(await createUser(usersDeps(c.var.deps), c.req.valid('json'), auditActor(c)), 201),
  )
  .openapi(getRoute, async (c) => c.json(await getUser(c.var.deps.db, c.req.valid('param').id), 200))
  .openapi(updateRoute, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await updateUser(usersDeps(c.var.deps), id, c.req.valid('json'), auditActor(c)), 200);
  })
  .openapi(deleteRoute, async (c) => {
    await deactivateUser(usersDeps(c.var.deps), c.req.valid('param').id, auditActor(c));
    return c.body(null, 204);
  });
