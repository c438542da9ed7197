import { createRoute } from '@hono/zod-openapi';
import {
  ALREADY_INITIALIZED,
  initializeSystem,
  isInitialized,
  setupInputSchema,
} from '@sluice/shared/auth/sign-in';
import { loadSettings } from '@sluice/shared/db/repos';
import { badRequest, tooManyRequests } from '@sluice/shared/http';
import type { MiddlewareHandler } from 'hono';
import { createRouter, errorResponses, jsonBody, jsonResponse } from '../openapi';
import { SetupStatusSchema, TokenResponseSchema } from '../schemas/identity';
import type { ConsoleEnv } from '../types';
import { identityDeps } from './identity-deps';

const SETUP_CALLS_PER_MINUTE = 5;

/** Counted before validation, so a flood of bad bodies is refused too. */
const limitSetupCalls: MiddlewareHandler<ConsoleEnv> = async (c, next) => {
  const state = await c.var.deps.setupCalls.hit(c.var.meta.ipAddress ?? 'unknown', 60_000);
  if (state.count > SETUP_CALLS_PER_MINUTE) {
    throw tooManyRequests('Too many setup requests; try again later', state.resetMs / 1000);
  }
  await next();
};

/**
 * Once there is an admin the endpoint answers 400 to anything (the spec's "afterwards that
 * endpoint answers 400"), a body that would fail validation included: checked before the body
 * is. The transaction checks again, for calls that race the first one.
 */
const refuseOnceInitialized: MiddlewareHandler<ConsoleEnv> = async (c, next) => {
  if (await isInitialized(c.var.deps)) throw badRequest(ALREADY_INITIALIZED);
  await next();
};

const statusRoute = createRoute({
  method: 'get',
  path: '/status',
  tags: ['setup'],
  summary:
    'Whether the system has its first admin, the name the console shows (site_name) and where clients reach the gateway (gateway_base_url)',
  responses: { 200: jsonResponse(SetupStatusSchema, 'Setup state') },
});

const initializeRoute = createRoute({
  method: 'post',
  path: '/initialize',
  tags: ['setup'],
  summary: 'Create the first admin (and optionally a provider); only while uninitialized',
  middleware: [limitSetupCalls, refuseOnceInitialized] as const,
  request: { body: jsonBody(setupInputSchema) },
  responses: {
    200: jsonResponse(TokenResponseSchema, 'Tokens for the new admin'),
    ...errorResponses(400, 422, 429),
  },
});

export const setupRoutes = createRouter()
  .openapi(statusRoute, async (c) => {
    const [initialized, settings] = await Promise.all([
      isInitialized(c.var.deps),
      loadSettings(c.var.deps.db),
    ]);
    return c.json(
      {
        initialized,
        needs_setup: !initialized,
        site_name: settings.site_name,
        gateway_base_url: settings.gateway_base_url,
      },
      200,
    );
  })
  .openapi(initializeRoute, async (c) => {
    const result = await initializeSystem(
      { ...identityDeps(c.var.deps), redis: c.var.deps.redis, logger: c.var.deps.logger },
      c.req.valid('json'),
      c.var.meta,
    );
    return c.json(result, 200);
  });
