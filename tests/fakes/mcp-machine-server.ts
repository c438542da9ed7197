/**
 * An MCP server for machine clients, and its authorization server on an origin of its own, as
 * a company's internal servers behind their identity provider are: the MCP server answers 401
 * with resource_metadata without a live token it issued (RFC 9728); the authorization server
 * publishes RFC 8414 metadata and issues tokens for the client_credentials grant (the client
 * authenticated by HTTP Basic, form-urlencoded per RFC 6749 § 2.3.1, or by a private_key_jwt
 * assertion) and for the jwt-bearer grant (a workload JWT its trusted identity provider
 * signed, or an identity assertion grant its trusted identity provider issued for a user to a
 * client that authenticates). Assertions are checked with jose: signature, audience (the
 * issuer), expiry. Its one tool, whoami, says which client's (or user's) token called it.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { type CryptoKey, jwtVerify } from 'jose';
import { listenLocally } from './mcp-servers';
import { bearerOf, json, readBody, refuseToken, serveWhoami } from './oauth-mcp-common';

export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

export interface MachineServerOptions {
  /** Confidential clients by id: a secret, or the public key their assertions verify with. */
  clients: Record<string, { secret?: string; publicKey?: CryptoKey }>;
  /** The key the trusted workload identity provider signs workload JWTs with. */
  workloadKey?: CryptoKey;
  tokenEndpointAuthMethods: string[];
  /** Seconds each token lives. */
  expiresIn: number;
}

export interface TokenRequest {
  form: Record<string, string>;
  authorization: string | undefined;
}

export interface MachineMcpServer {
  url: string;
  issuer: string;
  tokenRequests: TokenRequest[];
  /** The bearer tokens the MCP server was called with, in order. */
  presented: string[];
  /** Ends every token issued so far: the next call with one is answered 401. */
  revokeAll(): void;
  close(): Promise<void>;
}

const formDecode = (part: string) => new URLSearchParams(`v=${part}`).get('v') ?? '';

const ID_JAG_TYPE = 'oauth-id-jag+jwt';

/** The client HTTP Basic authenticates (form-urlencoded per RFC 6749 § 2.3.1), or null. */
function basicClient(authorization: string | undefined, options: MachineServerOptions): string | null {
  if (!authorization?.startsWith('Basic ')) return null;
  const [id = '', secret = ''] = Buffer.from(authorization.slice(6), 'base64').toString().split(':');
  const client = options.clients[formDecode(id)];
  return client?.secret !== undefined && client.secret === formDecode(secret) ? formDecode(id) : null;
}

type Refusal = { error: string; error_description: string; status?: number };

/** Who the token request is from, or why it is refused (RFC 6749 § 5.2, RFC 7523 § 3.1). */
async function authenticate(
  form: Record<string, string>,
  authorization: string | undefined,
  options: MachineServerOptions,
  issuer: string,
): Promise<string | Refusal> {
  const invalidClient = (why: string): Refusal => ({
    error: 'invalid_client',
    error_description: why,
    status: 401,
  });
  if (form.grant_type === JWT_BEARER) {
    if (!options.workloadKey)
      return { error: 'unsupported_grant_type', error_description: 'no jwt-bearer here' };
    try {
      const { payload, protectedHeader } = await jwtVerify(form.assertion ?? '', options.workloadKey, {
        audience: issuer,
      });
      if (protectedHeader.typ !== ID_JAG_TYPE) return `workload:${payload.sub}`;
      // An identity assertion grant (enterprise-managed authorization): for the client it names,
      // which must authenticate, and the resource it names.
      const client = basicClient(authorization, options);
      if (client === null || client !== payload.client_id)
        return invalidClient(`the grant is for ${String(payload.client_id)}; the caller is ${client}`);
      if (payload.resource !== form.resource)
        return { error: 'invalid_grant', error_description: `the grant is for ${String(payload.resource)}` };
      return `user:${payload.sub}`;
    } catch (error) {
      return {
        error: 'invalid_grant',
        error_description: `workload JWT refused: ${(error as Error).message}`,
      };
    }
  }
  if (form.grant_type !== 'client_credentials')
    return { error: 'unsupported_grant_type', error_description: String(form.grant_type) };
  if (authorization?.startsWith('Basic '))
    return basicClient(authorization, options) ?? invalidClient('bad client credentials');
  if (form.client_assertion_type === 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer') {
    const key = options.clients[form.client_id ?? '']?.publicKey;
    if (!key) return invalidClient('unknown client');
    try {
      const { payload } = await jwtVerify(form.client_assertion ?? '', key, { audience: issuer });
      const { iss, sub, jti } = payload;
      if (!sub || iss !== form.client_id || sub !== form.client_id || !jti)
        return invalidClient('iss, sub and jti must name the client');
      return sub;
    } catch (error) {
      return invalidClient(`assertion refused: ${(error as Error).message}`);
    }
  }
  return invalidClient('no client authentication');
}

export async function startMachineMcpServer(options: MachineServerOptions): Promise<MachineMcpServer> {
  const tokens = new Map<string, { client: string; expires: number }>();
  const tokenRequests: TokenRequest[] = [];
  const presented: string[] = [];
  let issuer = '';
  let mcpOrigin = '';

  const authorizationServer = createServer(async (req, res) => {
    const route = `${req.method} ${new URL(req.url ?? '/', issuer).pathname}`;
    if (route === 'GET /.well-known/oauth-authorization-server')
      return json(res, 200, {
        issuer,
        token_endpoint: `${issuer}/token`,
        grant_types_supported: ['client_credentials', JWT_BEARER],
        token_endpoint_auth_methods_supported: options.tokenEndpointAuthMethods,
        token_endpoint_auth_signing_alg_values_supported: ['ES256'],
      });
    if (route !== 'POST /token') return json(res, 404, { error: 'not_found' });
    const form = Object.fromEntries(new URLSearchParams(await readBody(req)));
    tokenRequests.push({ form, authorization: req.headers.authorization });
    const client = await authenticate(form, req.headers.authorization, options, issuer);
    if (typeof client !== 'string') {
      const { status = 400, ...error } = client;
      return json(res, status, error);
    }
    if (form.resource !== `${mcpOrigin}/mcp`)
      return json(res, 400, {
        error: 'invalid_target',
        error_description: `unknown resource ${form.resource}`,
      });
    const accessToken = randomBytes(18).toString('base64url');
    tokens.set(accessToken, { client, expires: Date.now() + options.expiresIn * 1000 });
    return json(res, 200, { access_token: accessToken, token_type: 'Bearer', expires_in: options.expiresIn });
  });
  issuer = (await listenLocally(authorizationServer, '')).replace(/\/$/, '');

  const mcp = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', mcpOrigin).pathname;
    if (path === '/.well-known/oauth-protected-resource/mcp')
      return json(res, 200, { resource: `${mcpOrigin}/mcp`, authorization_servers: [issuer] });
    if (path !== '/mcp') return json(res, 404, { error: 'not_found' });
    const bearer = bearerOf(req);
    const live = tokens.get(bearer);
    if (!live || live.expires < Date.now()) return refuseToken(res, mcpOrigin);
    presented.push(bearer);
    const body = JSON.parse((await readBody(req)) || 'null');
    const who = {
      name: 'fake-internal',
      description: 'The client the token was issued to',
      answer: `Called by ${live.client}`,
    };
    await serveWhoami(req, res, body, who);
  });
  const url = await listenLocally(mcp, '/mcp');
  mcpOrigin = new URL(url).origin;

  const close = (http: typeof mcp) =>
    new Promise<void>((resolve) => {
      http.closeAllConnections();
      http.close(() => resolve());
    });
  return {
    url,
    issuer,
    tokenRequests,
    presented,
    revokeAll: () => tokens.clear(),
    close: async () => {
      await Promise.all([close(mcp), close(authorizationServer)]);
    },
  };
}
