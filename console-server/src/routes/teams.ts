import { createRoute } from '@hono/zod-openapi';
import {
  createTeam,
  createTeamInputSchema,
  deleteTeam,
  getTeam,
  listTeams,
  replaceMembers,
  replaceRoles,
  roleIdsInputSchema,
  teamMembersInputSchema,
  updateTeam,
  updateTeamInputSchema,
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
import { TeamPageSchema, TeamSchema } from '../schemas/limits';
import { auditActor } from './audit-actor';

const common = { tags: ['teams'], security: bearerSecurity };

/** 404 before 422: an unknown id with a bad body is not found (middleware/found-first). */
const teamFound = foundFirst((c) => getTeam(c.var.deps.db, pathId(c)));

const listRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'get',
  path: '/',
  summary: 'All teams by name, with their member and role ids',
  description: PAGING,
  request: { query: pageQuerySchema },
  responses: {
    200: listResponse(TeamPageSchema, 'One page and the total'),
    ...errorResponses(401, 403, 422),
  },
});

const createTeamRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'post',
  path: '/',
  summary: 'Create a team (no members or roles yet)',
  request: { body: jsonBody(createTeamInputSchema) },
  responses: {
    201: jsonResponse(TeamSchema, 'The new team'),
    ...errorResponses(400, 401, 403, 409, 422),
  },
});

const getRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'get',
  path: '/{id}',
  summary: 'One team',
  request: { params: IdParams },
  responses: { 200: jsonResponse(TeamSchema, 'The team'), ...errorResponses(401, 403, 404) },
});

const updateRoute = createRoute({
  ...common,
  middleware: [requireAdmin(), teamFound] as const,
  method: 'patch',
  path: '/{id}',
  summary: 'Rename or describe a team',
  request: { params: IdParams, body: jsonBody(updateTeamInputSchema) },
  responses: {
    200: jsonResponse(TeamSchema, 'The updated team'),
    ...errorResponses(400, 401, 403, 404, 409, 422),
  },
});

const deleteRoute = createRoute({
  ...common,
  middleware: [requireAdmin(), teamFound] as const,
  method: 'delete',
  path: '/{id}',
  summary: 'Delete a team, its memberships, role attachments and the permission grants scoped to it',
  request: { params: IdParams },
  responses: { 204: noContent, ...errorResponses(401, 403, 404) },
});

const membersRoute = createRoute({
  ...common,
  middleware: [requireAdmin(), teamFound] as const,
  method: 'put',
  path: '/{id}/members',
  summary: 'Replace the member list',
  description: 'Every id must be an existing user: 422 with details[].path user_ids.<index> otherwise.',
  request: { params: IdParams, body: jsonBody(teamMembersInputSchema) },
  responses: {
    200: jsonResponse(TeamSchema, 'The team with its new members'),
    ...errorResponses(400, 401, 403, 404, 422),
  },
});

const rolesRoute = createRoute({
  ...common,
  middleware: [requireAdmin(), teamFound] as const,
  method: 'put',
  path: '/{id}/roles',
  summary: 'Replace the roles attached to the team (their limits apply to every member)',
  description: 'Every id must be an existing role: 422 with details[].path role_ids.<index> otherwise.',
  request: { params: IdParams, body: jsonBody(roleIdsInputSchema) },
  responses: {
    200: jsonResponse(TeamSchema, 'The team with its new roles'),
    ...errorResponses(400, 401, 403, 404, 422),
  },
});

export const teamsRoutes = createRouter()
  .openapi(listRoute, async (c) => sendPage(c, await listTeams(c.var.deps.db, c.req.valid('query'))))
  .openapi(createTeamRoute, async (c) =>
    c.json(await createTeam(c.var.deps, c.req.valid('json'), auditActor(c)), 201),
  )
  .openapi(getRoute, async (c) => c.json(await getTeam(c.var.deps.db, c.req.valid('param').id), 200))
  .openapi(updateRoute, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await updateTeam(c.var.deps, id, c.req.valid('json'), auditActor(c)), 200);
  })
  .openapi(deleteRoute, async (c) => {
    await deleteTeam(c.var.deps, c.req.valid('param').id, auditActor(c));
    return c.body(null, 204);
  })
  .openapi(membersRoute, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await replaceMembers(c.var.deps, id, c.req.valid('json'), auditActor(c)), 200);
  })
  .openapi(rolesRoute, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await replaceRoles(c.var.deps, id, c.req.valid('json'), auditActor(c)), 200);
  });
