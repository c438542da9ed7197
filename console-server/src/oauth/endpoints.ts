import {
  authorizationServerMetadata,
  exchangeToken,
  invalidRequest,
  OAuthError,
  registerClient,
  revokeToken,
  startAuthorization,
} from '@sluice/shared/auth/oauth';
import { connectionsPageOf, finishUpstreamConnect } from '@sluice/shared/mcp/oauth';
import { type Context, Hono } from 'hono';
import { cors } from 'hono/cors';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { onConsoleError } from '../errors';
import { limitBody } from '../middleware/body-limit';
import type { ConsoleEnv } from '../types';
import { issuerOf, oauthServer } from './server-deps';
import { UPSTREAM_CALLBACK_PATH, UPSTREAM_CLIENT_DOCUMENT_PATH, upstreamOAuth } from './upstream-deps';

/** Where the web UI asks the signed-in user to consent (console-server/ui: OAuthConsentPage). */
export const CONSENT_PATH = '/oauth/consent';
const FORM_LIMIT_BYTES = 64 * 1024;

/**
 * The authorization server's own surface (RFC 8414 metadata, RFC 6749 authorize and token,
 * RFC 7591 registration, RFC 7009 revocation) at the console's root, beside /api. Its errors
 * are OAuth's `{error, error_description}` (RFC 6749 § 5.2), produced in this router's onError only.
 * Browser-based MCP clients call these from other origins: CORS is open, without credentials.
 */
const openCors = cors({
  origin: '*',
  allowMethods: ['GET', 'POST', 'OPTIONS'],
  allowHeaders: ['content-type', 'authorization', 'mcp-protocol-version'],
});

export const oauthEndpoints = new Hono<ConsoleEnv>()
  .use('/oauth/*', openCors)
  .use('/.well-known/*', openCors)
  .use('/oauth/*', limitBody({ maxBytes: FORM_LIMIT_BYTES }))
  .get('/.well-known/oauth-authorization-server', (c) => c.json(authorizationServerMetadata(issuerOf(c))))
  .get('/oauth/authorize', async (c) => {
    const start = await startAuthorization(c.req.query(), oauthServer(c));
    if (start.kind === 'redirect') return c.redirect(start.url, 302);
    return c.redirect(`${CONSENT_PATH}?request=${encodeURIComponent(start.pending.id)}`, 302);
  })
  .post('/oauth/token', async (c) => {
    const tokens = await exchangeToken(await formOf(c), oauthServer(c));
    c.header('Cache-Control', 'no-store');
    c.header('Pragma', 'no-cache');
    return c.json(tokens);
  })
  .post('/oauth/register', async (c) => {
    const body = await c.req.json().catch(() => {
      throw new OAuthError(400, 'invalid_client_metadata', 'The body must be JSON');
    });
    return c.json(await registerClient(body, oauthServer(c).clients, new Date()), 201);
  })
  .post('/oauth/revoke', async (c) => {
    await revokeToken(await formOf(c), oauthServer(c));
    return c.body(null, 200);
  })
  .get(UPSTREAM_CLIENT_DOCUMENT_PATH, (c) => {
    const base = issuerOf(c);
    return c.json({
      client_id: `${base}${UPSTREAM_CLIENT_DOCUMENT_PATH}`,
      client_name: 'Sluice gateway',
      client_uri: base,
      redirect_uris: [`${base}${UPSTREAM_CALLBACK_PATH}`],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
  })
  .get(UPSTREAM_CALLBACK_PATH, async (c) => {
    // The user's browser, back from an upstream MCP server's sign-in (mcp/oauth/connect.ts).
    const back = new URL(connectionsPageOf(issuerOf(c)));
    try {
      const { serverName } = await finishUpstreamConnect(c.req.query(), upstreamOAuth(c));
      back.searchParams.set('connected', serverName);
    } catch (error) {
      back.searchParams.set('error', error instanceof Error ? error.message : String(error));
    }
    return c.redirect(back.toString(), 302);
  })
  .onError((error, c) => {
    if (error instanceof OAuthError) return oauthErrorResponse(c, error);
    return onConsoleError(error, c);
  });

function oauthErrorResponse(c: Context, error: OAuthError): Response {
  c.header('Cache-Control', 'no-store');
  if (error.status === 401) c.header('WWW-Authenticate', 'Basic realm="sluice-oauth"');
  return c.json(
    { error: error.code, error_description: error.message },
    error.status as ContentfulStatusCode,
  );
}

/** application/x-www-form-urlencoded, as RFC 6749 has clients send it; single values only. */
async function formOf(c: Context): Promise<Record<string, string | undefined>> {
  if (!(c.req.header('content-type') ?? '').includes('application/x-www-form-urlencoded'))
    throw invalidRequest('The body must be application/x-www-form-urlencoded');
  const params = new URLSearchParams(await c.req.text());
  const form: Record<string, string | undefined> = {};
  for (const name of new Set(params.keys())) {
    if (params.getAll(name).length > 1) throw invalidRequest(`${name} is given more than once`);
    form[name] = params.get(name) ?? undefined;
  }
  return form;
}
