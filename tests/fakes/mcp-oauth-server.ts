/**
 * An MCP server that acts for a person, with its own OAuth authorization server on the same
 * origin, as hosted ones (source hosting, tickets) are: 401 with resource_metadata, RFC 9728
 * and RFC 8414 metadata, dynamic registration, a sign-in page where the user picks who they
 * are and allows, PKCE-checked codes, rotating refresh tokens. Its one tool, whoami, says whose
 * token called it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { listenLocally } from './mcp-servers';
import { bearerOf, json, readBody, refuseToken, serveWhoami } from './oauth-mcp-common';

export interface OAuthMcpServer {
  url: string;
  /** Every token request as received (form fields), for the resource and PKCE checks. */
  tokenRequests: Array<Record<string, string>>;
  /** Ends every token it issued: the next call with one is refused. */
  revokeAll(): void;
  close(): Promise<void>;
}

const token = () => randomBytes(24).toString('base64url');
const s256 = (v: string) => createHash('sha256').update(v).digest('base64url');

export async function startOAuthMcpServer(): Promise<OAuthMcpServer> {
  const clients = new Set<string>();
  const codes = new Map<
    string,
    { login: string; challenge: string; clientId: string; redirectUri: string }
  >();
  const access = new Map<string, string>();
  const refresh = new Map<string, string>();
  const tokenRequests: Array<Record<string, string>> = [];
  let origin = '';
  const issue = (login: string) => {
    const pair = { access_token: token(), refresh_token: token(), token_type: 'Bearer', expires_in: 3600 };
    access.set(pair.access_token, login);
    refresh.set(pair.refresh_token, login);
    return pair;
  };
  const http = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const route = `${req.method} ${url.pathname}`;
    if (route === 'GET /.well-known/oauth-protected-resource/mcp')
      return json(res, 200, {
        resource: `${origin}/mcp`,
        authorization_servers: [origin],
        scopes_supported: ['repo'],
      });
    if (route === 'GET /.well-known/oauth-authorization-server')
      return json(res, 200, {
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        registration_endpoint: `${origin}/register`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
      });
    if (route === 'POST /register') {
      const clientId = token();
      clients.add(clientId);
      return json(res, 201, { client_id: clientId, ...JSON.parse(await readBody(req)) });
    }
    if (route === 'GET /authorize') {
      // The sign-in page: the user says who they are and allows.
      const approve = new URL('/authorize/approve', origin);
      approve.search = url.search;
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          `<form action="/authorize/approve" method="get">${[...url.searchParams]
            .map(([k, v]) => `<input type="hidden" name="${k}" value="${v.replaceAll('"', '&quot;')}">`)
            .join(
              '',
            )}<label>Fake Hub login <input name="login" aria-label="Fake Hub login"></label><button>Authorize Fake Hub</button></form>`,
        );
      return;
    }
    if (route === 'GET /authorize/approve') {
      const q = Object.fromEntries(url.searchParams);
      if (!clients.has(q.client_id ?? '') || q.code_challenge_method !== 'S256')
        return json(res, 400, { error: 'invalid_request' });
      const code = token();
      codes.set(code, {
        login: q.login ?? '',
        challenge: q.code_challenge ?? '',
        clientId: q.client_id ?? '',
        redirectUri: q.redirect_uri ?? '',
      });
      const back = new URL(q.redirect_uri ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.state ?? '');
      res.writeHead(302, { location: back.toString() }).end();
      return;
    }
    if (route === 'POST /token') {
      const form = Object.fromEntries(new URLSearchParams(await readBody(req)));
      tokenRequests.push(form);
      if (form.grant_type === 'authorization_code') {
        const grant = codes.get(form.code ?? '');
        codes.delete(form.code ?? '');
        const ok =
          grant &&
          grant.clientId === form.client_id &&
          grant.redirectUri === form.redirect_uri &&
          s256(form.code_verifier ?? '') === grant.challenge;
        return ok ? json(res, 200, issue(grant.login)) : json(res, 400, { error: 'invalid_grant' });
      }
      const login = refresh.get(form.refresh_token ?? '');
      refresh.delete(form.refresh_token ?? '');
      return login ? json(res, 200, issue(login)) : json(res, 400, { error: 'invalid_grant' });
    }
    if (url.pathname === '/mcp') {
      const login = access.get(bearerOf(req));
      if (!login) return refuseToken(res, origin, ', scope="repo"');
      const body = req.method === 'POST' ? JSON.parse(await readBody(req)) : undefined;
      const who = { name: 'fake-hub', description: 'Who the token belongs to', answer: `You are ${login}` };
      await serveWhoami(req, res, body, who);
      return;
    }
    // A browser on the sign-in page asks for an icon.
    if (route === 'GET /favicon.ico') return res.writeHead(204).end();
    json(res, 404, { error: 'not_found' });
  });
  const url = await listenLocally(http, '/mcp');
  origin = new URL(url).origin;
  return {
    url,
    tokenRequests,
    revokeAll: () => access.clear(),
    close: () => new Promise((resolve) => http.close(() => resolve())),
  };
}
