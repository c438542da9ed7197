import { createRoute } from '@hono/zod-openapi';
import { pageQuerySchema } from '@sluice/shared/db';
import {
  createModel,
  createModelInputSchema,
  deleteModel,
  getModel,
  listModels,
  listUnpricedModels,
  replaceModelRoutes,
  replaceRoutesInputSchema,
  updateModel,
  updateModelInputSchema,
} from '@sluice/shared/models-admin';
import { readRouteHealth } from '@sluice/shared/routing';
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
import { ModelPageSchema, ModelSchema, RouteHealthListSchema } from '../schemas/admin';
import { auditActor } from './audit-actor';

const common = { tags: ['models'], security: bearerSecurity };

/** 404 before 422: an unknown id with a bad body is not found (middleware/found-first). */
const modelFound = foundFirst((c) => getModel(c.var.deps.db, pathId(c)));

const listRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'get',
  path: '/',
  summary: 'All models by name, with their ordered routes',
  description: PAGING,
  request: { query: pageQuerySchema },
  responses: {
    200: listResponse(ModelPageSchema, 'One page and the total'),
    ...errorResponses(401, 403, 422),
  },
});

const unpricedRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'get',
  path: '/unpriced',
  summary: 'Models whose requests are logged unpriced: no own prices and no price-table entry, by name',
  description: PAGING,
  request: { query: pageQuerySchema },
  responses: {
    200: listResponse(ModelPageSchema, 'One page and the total'),
    ...errorResponses(401, 403, 422),
  },
});

const routeHealthRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'get',
  path: '/route-health',
  summary: 'Routes that failed lately: benched, on probation, or counting failures (the rest are healthy)',
  responses: {
    200: jsonResponse(RouteHealthListSchema, 'By model, then provider'),
    ...errorResponses(401, 403),
  },
});

const createModelRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'post',
  path: '/',
  summary: 'Create a model, optionally with its ordered routes',
  request: { body: jsonBody(createModelInputSchema) },
  responses: {
    201: jsonResponse(ModelSchema, 'The new model'),
    ...errorResponses(400, 401, 403, 409, 422),
  },
});

const getRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'get',
  path: '/{id}',
  summary: 'One model with its routes',
  request: { params: IdParams },
  responses: { 200: jsonResponse(ModelSchema, 'The model'), ...errorResponses(401, 403, 404) },
});

const updateRoute = createRoute({
  ...common,
  middleware: [requireAdmin(), modelFound] as const,
  method: 'patch',
  path: '/{id}',
  summary: 'Change name, weights, prices or active state; `routes`, when given, replaces the list',
  request: { params: IdParams, body: jsonBody(updateModelInputSchema) },
  responses: {
    200: jsonResponse(ModelSchema, 'The updated model'),
    ...errorResponses(400, 401, 403, 404, 409, 422),
  },
});

const deleteRoute = createRoute({
  ...common,
  middleware: [requireAdmin(), modelFound] as const,
  method: 'delete',
  path: '/{id}',
  summary: 'Delete a model and its routes',
  request: { params: IdParams },
  responses: { 204: noContent, ...errorResponses(401, 403, 404) },
});

const replaceRoutesRoute = createRoute({
  ...common,
  middleware: [requireAdmin(), modelFound] as const,
  method: 'put',
  path: '/{id}/routes',
  summary: 'Replace the ordered route list atomically (position = array index)',
  request: { params: IdParams, body: jsonBody(replaceRoutesInputSchema) },
  responses: {
    200: jsonResponse(ModelSchema, 'The model with its new routes'),
    ...errorResponses(400, 401, 403, 404, 422),
  },
});

// /unpriced and /route-health are registered before /{id} so the literal segments win.
export const modelsRoutes = createRouter()
  .openapi(listRoute, async (c) => sendPage(c, await listModels(c.var.deps.db, c.req.valid('query'))))
  .openapi(unpricedRoute, async (c) =>
    sendPage(c, await listUnpricedModels(c.var.deps.db, c.req.valid('query'))),
  )
  .openapi(routeHealthRoute, async (c) =>
    c.json(await readRouteHealth(c.var.deps.redis, c.var.deps.db, Date.now()), 200),
  )
  .openapi(createModelRoute, async (c) =>
    c.json(await createModel(c.var.deps, c.req.valid('json'), auditActor(c)), 201),
  )
  .openapi(getRoute, async (c) => c.json(await getModel(c.var.deps.db, c.req.valid('param').id), 200))
  .openapi(updateRoute, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await updateModel(c.var.deps, id, c.req.valid('json'), auditActor(c)), 200);
  })
  .openapi(deleteRoute, async (c) => {
    await deleteModel(c.var.deps, c.req.valid('param').id, auditActor(c));
    return c.body(null, 204);
  })
  .openapi(replaceRoutesRoute, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await replaceModelRoutes(c.var.deps, id, c.req.valid('json'), auditActor(c)), 200);
  });
