import { createRoute, z } from '@hono/zod-openapi';
import {
  exchangeSignInCode,
  finishSso,
  parkSignIn,
  ssoAvailable,
  startSso,
} from '@sluice/shared/auth/sign-in';
import { upstreamOAuthStore } from '@sluice/shared/db/repos';
import { connectThroughSignIn } from '@sluice/shared/mcp/registry';
import { createRouter, errorResponses, jsonBody, jsonResponse } from '../openapi';
import { TokenResponseSchema } from '../schemas/identity';
import type { ConsoleDeps } from '../types';

const common = { tags: ['auth'] };

const AuthorizeQuery = z.object({
  return_to: z.string().max(2000).optional().openapi({
    description: 'Browser flow: a console path to come back to with a one-time code (e.g. /ui/)',
  }),
});
const CallbackQuery = z.object({
  code: z.string().max(4096).optional(),
  state: z.string().max(512).optional(),
});
const ExchangeBody = z.strictObject({ code: z.string().min(1).max(256) });

const statusRoute = createRoute({
  ...common,
  method: 'get',
  path: '/status',
  summary: 'Whether single sign-on is enabled and fully configured (public; for sign-in pages)',
  responses: {
    200: jsonResponse(
      z.object({ enabled: z.boolean() }).openapi('SsoStatus'),
      'enabled: GET /api/auth/sso/authorize will send the browser to the identity provider',
    ),
  },
});

const authorizeRoute = createRoute({
  ...common,
  method: 'get',
  path: '/authorize',
  summary: "Start single sign-on: 302 to the identity provider's authorization endpoint",
  description:
    'State, nonce and a PKCE (S256) verifier are kept in Redis for nonce_ttl_seconds. 500 when OIDC is not ' +
    'configured (the message names the missing settings); 502 when the provider cannot be discovered.',
  request: { query: AuthorizeQuery },
  responses: { 302: { description: 'To the provider' }, ...errorResponses(400, 500, 502) },
});

const callbackRoute = createRoute({
  ...common,
  method: 'get',
  path: '/callback',
  summary: 'The provider sends the browser back here with code and state',
  description:
    'Answers the token response with user (auth.login, method sso). 400 without code or state; 401 when the ' +
    'state is unknown, expired or reused, the token exchange or the ID token fails (signature, issuer, audience, ' +
    'expiry, nonce), the email is unverified or its domain not allowed, or no account may be created; 500 when ' +
    'OIDC is not configured. When authorize had return_to: 302 to it with ?sso_code=<one-time code> instead.',
  request: { query: CallbackQuery },
  responses: {
    200: jsonResponse(TokenResponseSchema, 'Tokens and user'),
    302: { description: 'Back to the console page, with a one-time code' },
    ...errorResponses(400, 401, 500),
  },
});

const exchangeRoute = createRoute({
  ...common,
  method: 'post',
  path: '/exchange',
  summary: 'Browser flow: trade the one-time sso_code for the token response (once, within 60 s)',
  request: { body: jsonBody(ExchangeBody) },
  responses: { 200: jsonResponse(TokenResponseSchema, 'Tokens and user'), ...errorResponses(400, 401, 422) },
});

const ssoDeps = (deps: ConsoleDeps) => ({
  db: deps.db,
  redis: deps.redis,
  jwt: deps.jwt,
  secrets: deps.secrets,
});

const signInConnectDeps = (deps: ConsoleDeps) => ({
  db: deps.db,
  secrets: deps.secrets,
  store: upstreamOAuthStore(deps.db, deps.secrets),
  fetch,
  now: () => new Date(),
  warn: (message: string, fields: Record<string, unknown>) => deps.logger.child('mcp').warn(message, fields),
});

/** OIDC authorization-code flow with PKCE (shared/src/auth/sign-in/sso). */
export const ssoRoutes = createRouter()
  .openapi(statusRoute, async (c) => c.json({ enabled: await ssoAvailable(c.var.deps) }, 200))
  .openapi(authorizeRoute, async (c) => {
    const url = await startSso(ssoDeps(c.var.deps), { returnTo: c.req.valid('query').return_to });
    return c.redirect(url, 302);
  })
  .openapi(callbackRoute, async (c) => {
    const deps = ssoDeps(c.var.deps);
    const { signIn, returnTo, identity } = await finishSso(deps, c.req.valid('query'), c.var.meta);
    // The servers that trust the same identity provider are connected with the ID token it brought.
    if (identity) await connectThroughSignIn(signInConnectDeps(c.var.deps), signIn.user.id, identity);
    if (!returnTo) return c.json(signIn, 200);
    const back = new URL(returnTo, 'http://console.invalid');
    back.searchParams.set('sso_code', await parkSignIn(deps, signIn));
    return c.redirect(`${back.pathname}${back.search}${back.hash}`, 302);
  })
  .openapi(exchangeRoute, async (c) =>
    c.json(await exchangeSignInCode(ssoDeps(c.var.deps), c.req.valid('json').code), 200),
  );
