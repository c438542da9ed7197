import { createRoute } from '@hono/zod-openapi';
import { createGrant, createGrantInputSchema, listGrants, revokeGrant } from '@sluice/shared/access';
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
import { GrantsQuerySchema, PermissionGrantPageSchema, PermissionGrantSchema } from '../schemas/limits';
import { auditActor } from './audit-actor';

const common = { tags: ['permissions'], security: bearerSecurity };

const GRANT_MODEL =
  'Admins hold rate_limits:read and rate_limits:write globally without grants. Scope global covers every ' +
  'API key and user; team covers the team’s members and the keys they own; own covers the holder’s own ' +
  'keys (not users). rate_limits:write implies rate_limits:read in the same scope.';

const listRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'get',
  path: '/',
  summary: 'Permission grants, oldest first',
  description: `${GRANT_MODEL} ${PAGING}`,
  request: { query: GrantsQuerySchema },
  responses: {
    200: listResponse(PermissionGrantPageSchema, 'One page and the total'),
    ...errorResponses(401, 403, 422),
  },
});

const createGrantRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'post',
  path: '/',
  summary: 'Grant rate_limits:read or rate_limits:write to a user in a scope',
  description:
    `${GRANT_MODEL} scope_id is required for scope_type team (an existing team) and refused otherwise; ` +
    'an unknown user_id or scope_id is a 422; holding the same grant already is a 409.',
  request: { body: jsonBody(createGrantInputSchema) },
  responses: {
    201: jsonResponse(PermissionGrantSchema, 'The new grant'),
    ...errorResponses(400, 401, 403, 409, 422),
  },
});

const revokeRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'delete',
  path: '/{id}',
  summary: 'Revoke a grant',
  request: { params: IdParams },
  responses: { 204: noContent, ...errorResponses(401, 403, 404) },
});

export const permissionsRoutes = createRouter()
  .openapi(listRoute, async (c) => {
    const query = c.req.valid('query');
    return sendPage(c, await listGrants(c.var.deps.db, { userId: query.user_id }, query));
  })
  .openapi(createGrantRoute, async (c) =>
    c.json(await createGrant(c.var.deps.db, c.req.valid('json'), auditActor(c)), 201),
  )
  .openapi(revokeRoute, async (c) => {
    await revokeGrant(c.var.deps.db, c.req.valid('param').id, auditActor(c));
    return c.body(null, 204);
  });
