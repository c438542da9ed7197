import { createRoute } from '@hono/zod-openapi';
import { pageQuerySchema } from '@sluice/shared/db';
import { deletePrice, listPrices, priceInputSchema, putPrice } from '@sluice/shared/pricing';
import { requireAdmin } from '../middleware/require-admin';
import {
  bearerSecurity,
  createRouter,
  errorResponses,
  jsonBody,
  jsonResponse,
  listResponse,
  noContent,
  PAGING,
  sendPage,
} from '../openapi';
import { ModelPricePageSchema, ModelPriceSchema, PriceModelParams } from '../schemas/model-prices';
import { auditActor } from './audit-actor';

const common = { tags: ['models'], security: bearerSecurity };

const listRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'get',
  path: '/',
  summary: 'The price table (USD per 1M tokens by upstream model), by vendor then model',
  description: PAGING,
  request: { query: pageQuerySchema },
  responses: {
    200: listResponse(ModelPricePageSchema, 'One page and the total'),
    ...errorResponses(401, 403, 422),
  },
});

const putRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'put',
  path: '/{model}',
  summary: 'Create or replace the price of one upstream model',
  description:
    'Prices apply to requests logged after the gateways reload (at once through the routing ' +
    'version, at most 30 s without Redis). A model whose own prices are set ignores the table.',
  request: { params: PriceModelParams, body: jsonBody(priceInputSchema) },
  responses: {
    200: jsonResponse(ModelPriceSchema, 'The replaced entry'),
    201: jsonResponse(ModelPriceSchema, 'The new entry'),
    ...errorResponses(400, 401, 403, 422),
  },
});

const deleteRoute = createRoute({
  ...common,
  middleware: [requireAdmin()] as const,
  method: 'delete',
  path: '/{model}',
  summary:
    'Remove the price of one upstream model (its requests become unpriced unless the model has its own)',
  request: { params: PriceModelParams },
  responses: { 204: noContent, ...errorResponses(401, 403, 404) },
});

export const modelPricesRoutes = createRouter()
  .openapi(listRoute, async (c) => sendPage(c, await listPrices(c.var.deps.db, c.req.valid('query'))))
  .openapi(putRoute, async (c) => {
    const { model } = c.req.valid('param');
    const { price, created } = await putPrice(c.var.deps, model, c.req.valid('json'), auditActor(c));
    return created ? c.json(price, 201) : c.json(price, 200);
  })
  .openapi(deleteRoute, async (c) => {
    await deletePrice(c.var.deps, c.req.valid('param').model, auditActor(c));
    return c.body(null, 204);
  });
