import { createRoute } from '@hono/zod-openapi';
import { pageQuerySchema } from '@sluice/shared/db';
import {
  createProvider,
  createProviderInputSchema,
  deleteProvider,
  getProvider,
  listProviders,
  updateProvider,
  updateProviderInputSchema,
} from '@sluice/shared/providers-admin';
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
import { ProviderPageSchema, ProviderSchema } from '../schemas/admin';
import { auditActor } from './audit-actor';

const common = { tags: ['providers'], security: bearerSecurity };

/** 404 before 422: an unknown id with a bad body is not found (middleware/found-first). */
const providerFound = foundFirst((c) => getProvider(c.var.deps.db, pathId(c)));

const listRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'get',
  path: '/',
  summary: 'All upstream providers by name (api_key is never returned)',
  description: PAGING,
  request: { query: pageQuerySchema },
  responses: {
    200: listResponse(ProviderPageSchema, 'One page and the total'),
    ...errorResponses(401, 403, 422),
  },
});

const createProviderRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'post',
  path: '/',
  summary: 'Register a provider; api_key is encrypted at rest',
  request: { body: jsonBody(createProviderInputSchema) },
  responses: {
    201: jsonResponse(ProviderSchema, 'The new provider'),
    ...errorResponses(400, 401, 403, 409, 422),
  },
});

const getRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'get',
  path: '/{id}',
  summary: 'One provider',
  request: { params: IdParams },
  responses: { 200: jsonResponse(ProviderSchema, 'The provider'), ...errorResponses(401, 403, 404) },
});

const updateRoute = createRoute({
  ...common,
  middleware: [requireAdmin(), providerFound] as const,
  method: 'patch',
  path: '/{id}',
  summary: 'Change display name, base URL, active state, or replace the api_key',
  description: 'name and provider_type cannot change: clients address providers by name.',
  request: { params: IdParams, body: jsonBody(updateProviderInputSchema) },
  responses: {
    200: jsonResponse(ProviderSchema, 'The updated provider'),
    ...errorResponses(400, 401, 403, 404, 422),
  },
});

const deleteRoute = createRoute({
  ...common,
  middleware: [requireAdmin(), providerFound] as const,
  method: 'delete',
  path: '/{id}',
  summary: 'Delete a provider and every model route to it',
  request: { params: IdParams },
  responses: { 204: noContent, ...errorResponses(401, 403, 404) },
});

export const providersRoutes = createRouter()
  .openapi(listRoute, async (c) => sendPage(c, await listProviders(c.var.deps.db, c.req.valid('query'))))
  .openapi(createProviderRoute, async (c) =>
    c.json(await createProvider(c.var.deps, c.req.valid('json'), auditActor(c)), 201),
  )
  .openapi(getRoute, async (c) => c.json(await getProvider(c.var.deps.db, c.req.valid('param').id), 200))
  .openapi(updateRoute, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await updateProvider(c.var.deps, id, c.req.valid('json'), auditActor(c)), 200);
  })
  .openapi(deleteRoute, async (c) => {
    await deleteProvider(c.var.deps, c.req.valid('param').id, auditActor(c));
    return c.body(null, 204);
  });
