import { createRoute } from '@hono/zod-openapi';
import { pageQuerySchema } from '@sluice/shared/db';
import type { KeyActor, KeysDeps } from '@sluice/shared/keys';
import {
  createKey,
  createKeyInputSchema,
  expiringQuerySchema,
  getKey,
  listExpiringKeys,
  listKeys,
  revokeKey,
  rotateKey,
  updateKey,
  updateKeyInputSchema,
} from '@sluice/shared/keys';
import type { Context } from 'hono';
import { foundFirst, pathId } from '../middleware/found-first';
import { requireJwt } from '../middleware/require-jwt';
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
  ApiKeyPageSchema,
  ApiKeySchema,
  CreatedApiKeySchema,
  ExpiringApiKeyPageSchema,
  RotatedApiKeySchema,
  UpdatedApiKeySchema,
} from '../schemas/keys';
import type { ConsoleEnv } from '../types';
import { auditActor } from './audit-actor';

// Every route: signed-in user, own keys only (someone else's key is a 404, never a 403).
const common = { tags: ['keys'], security: bearerSecurity };

/** 404 before 422: an unknown id with a bad body is not found (middleware/found-first). */
const keyFound = foundFirst((c) => getKey(c.var.deps.db, c.var.auth.userId, pathId(c)));

const listRoute = createRoute({
  ...common,
  middleware: [requireJwt()] as const,
  method: 'get',
  path: '/',
  summary: "The caller's keys (not revoked), newest first; never the secret",
  description: PAGING,
  request: { query: pageQuerySchema },
  responses: { 200: listResponse(ApiKeyPageSchema, 'One page and the total'), ...errorResponses(401, 422) },
});

const createKeyRoute = createRoute({
  ...common,
  middleware: [requireJwt()] as const,
  method: 'post',
  path: '/',
  summary: 'Create a key; the secret is in this response only',
  request: { body: jsonBody(createKeyInputSchema) },
  responses: {
    201: jsonResponse(CreatedApiKeySchema, 'The new key with its secret'),
    ...errorResponses(400, 401, 422),
  },
});

// Declared before /{id}, so "expiring" is never read as an id.
const expiringRoute = createRoute({
  ...common,
  middleware: [requireJwt()] as const,
  method: 'get',
  path: '/expiring',
  summary: "The caller's active keys expiring within `days` days (default 7), soonest first",
  description: PAGING,
  request: { query: expiringQuerySchema },
  responses: {
    200: listResponse(ExpiringApiKeyPageSchema, 'One page and the total'),
    ...errorResponses(401, 422),
  },
});

const getRoute = createRoute({
  ...common,
  middleware: [requireJwt()] as const,
  method: 'get',
  path: '/{id}',
  summary: 'One of the caller’s keys',
  request: { params: IdParams },
  responses: { 200: jsonResponse(ApiKeySchema, 'The key'), ...errorResponses(401, 404) },
});

const updateRoute = createRoute({
  ...common,
  middleware: [requireJwt(), keyFound] as const,
  method: 'patch',
  path: '/{id}',
  summary: 'Change name, models, rate limit, expiry, rotation interval or inactivity timeout',
  description: 'null clears a setting. 409 when the key is disabled or expired (final states).',
  request: { params: IdParams, body: jsonBody(updateKeyInputSchema) },
  responses: {
    200: jsonResponse(UpdatedApiKeySchema, 'The updated key'),
    ...errorResponses(400, 401, 404, 409, 422),
  },
});

const revokeRoute = createRoute({
  ...common,
  middleware: [requireJwt(), keyFound] as const,
  method: 'delete',
  path: '/{id}',
  summary: 'Revoke (irreversible); the key stops working on the next gateway request',
  request: { params: IdParams },
  responses: { 204: noContent, ...errorResponses(401, 404) },
});

const rotateRoute = createRoute({
  ...common,
  middleware: [requireJwt(), keyFound] as const,
  method: 'post',
  path: '/{id}/rotate',
  summary: 'Issue a new secret; the old one stays valid until grace_period_ends_at',
  description: '409 when the key is disabled or expired (final states).',
  request: { params: IdParams },
  responses: {
    200: jsonResponse(RotatedApiKeySchema, 'The new secret, returned once'),
    ...errorResponses(401, 404, 409),
  },
});

function keysDeps(c: Context<ConsoleEnv>): KeysDeps {
  return { db: c.var.deps.db, redis: c.var.deps.redis, logger: c.var.deps.logger };
}

function actor(c: Context<ConsoleEnv>): KeyActor {
  return { ...auditActor(c), userId: c.var.auth.userId };
}

export const keysRoutes = createRouter()
  .openapi(listRoute, async (c) =>
    sendPage(c, await listKeys(c.var.deps.db, c.var.auth.userId, c.req.valid('query'))),
  )
  .openapi(createKeyRoute, async (c) =>
    c.json(await createKey(keysDeps(c), actor(c), c.req.valid('json')), 201),
  )
  .openapi(expiringRoute, async (c) =>
    sendPage(c, await listExpiringKeys(c.var.deps.db, c.var.auth.userId, c.req.valid('query'))),
  )
  .openapi(getRoute, async (c) =>
    c.json(await getKey(c.var.deps.db, c.var.auth.userId, c.req.valid('param').id), 200),
  )
  .openapi(updateRoute, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await updateKey(keysDeps(c), actor(c), id, c.req.valid('json')), 200);
  })
  .openapi(revokeRoute, async (c) => {
    await revokeKey(keysDeps(c), actor(c), c.req.valid('param').id);
    return c.body(null, 204);
  })
  .openapi(rotateRoute, async (c) =>
    c.json(await rotateKey(keysDeps(c), actor(c), c.req.valid('param').id), 200),
  );
