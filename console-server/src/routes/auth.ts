import { createRoute } from '@hono/zod-openapi';
import {
  login,
  loginInputSchema,
  refreshInputSchema,
  register,
  registerInputSchema,
  rotateRefreshToken,
  toUserDetail,
} from '@sluice/shared/auth/sign-in';
import { findUserById } from '@sluice/shared/db/repos';
import { unauthorized } from '@sluice/shared/http';
import { requireJwt } from '../middleware/require-jwt';
import { bearerSecurity, createRouter, errorResponses, jsonBody, jsonResponse } from '../openapi';
import {
  RegisteredUserSchema,
  TokenPairSchema,
  TokenResponseSchema,
  UserDetailSchema,
} from '../schemas/identity';
import { identityDeps } from './identity-deps';

const loginRoute = createRoute({
  method: 'post',
  path: '/login',
  tags: ['auth'],
  summary: 'Sign in with email and password',
  request: { body: jsonBody(loginInputSchema) },
  responses: {
    200: jsonResponse(TokenResponseSchema, 'Tokens and user'),
    ...errorResponses(400, 401, 422, 429),
  },
});

const registerRoute = createRoute({
  method: 'post',
  path: '/register',
  tags: ['auth'],
  summary: 'Create an account with role user',
  request: { body: jsonBody(registerInputSchema) },
  responses: { 201: jsonResponse(RegisteredUserSchema, 'The new user'), ...errorResponses(400, 409, 422) },
});

const refreshRoute = createRoute({
  method: 'post',
  path: '/refresh',
  tags: ['auth'],
  summary: 'Exchange a refresh token (single use) for a new pair',
  request: { body: jsonBody(refreshInputSchema) },
  responses: { 200: jsonResponse(TokenPairSchema, 'A new token pair'), ...errorResponses(400, 401, 422) },
});

const meRoute = createRoute({
  method: 'get',
  path: '/me',
  tags: ['auth'],
  summary: 'The signed-in user',
  security: bearerSecurity,
  middleware: [requireJwt()] as const,
  responses: { 200: jsonResponse(UserDetailSchema, 'The caller'), ...errorResponses(401) },
});

export const authRoutes = createRouter()
  .openapi(loginRoute, async (c) =>
    c.json(await login(identityDeps(c.var.deps), c.req.valid('json'), c.var.meta), 200),
  )
  .openapi(registerRoute, async (c) =>
    c.json(await register(identityDeps(c.var.deps), c.req.valid('json'), c.var.meta), 201),
  )
  .openapi(refreshRoute, async (c) => {
    const { refresh_token } = c.req.valid('json');
    return c.json(await rotateRefreshToken(c.var.deps.db, c.var.deps.jwt, refresh_token), 200);
  })
  .openapi(meRoute, async (c) => {
    const user = await findUserById(c.var.deps.db, c.var.auth.userId);
    if (!user?.isActive) throw unauthorized('Missing or invalid access token');
    return c.json(toUserDetail(user), 200);
  });
