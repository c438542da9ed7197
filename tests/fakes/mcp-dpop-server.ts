/**
 * An MCP server whose authorization server (same origin) binds tokens to the client's key
 * (DPoP, RFC 9449), checking proofs as § 4.3 says: typ, an asymmetric alg, a public jwk that
 * verifies the signature, jti never seen before, htm and htu of the request, iat within a
 * minute, and, at the resource, ath of the presented token and the key the token is bound to.
 * Options: no DPoP in its metadata; nonces demanded (§ 8, § 9); tokens issued unbound (Bearer)
 * even after a proof. Its authorization endpoint approves at once (a redirect with the code).
 * The MCP endpoint answers any JSON-RPC request with an empty result.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { calculateJwkThumbprint, decodeProtectedHeader, importJWK, type JWK, jwtVerify } from 'jose';
import { listenLocally } from './mcp-servers';
import { json, readBody } from './oauth-mcp-common';

export interface DpopServerOptions {
  /** Publish dpop_signing_alg_values_supported (default true). */
  dpop?: boolean;
  /** Demand the current nonce in every proof, at the token endpoint and at /mcp. */
  requireNonce?: boolean;
  /** Answer token_type Bearer, binding nothing, even to a proof. */
  unbound?: boolean;
}

/** One request as the server judged it. */
export interface SeenRequest {
  path: string;
  scheme: string | null;
  /** A DPoP proof came with it. */
  proof: boolean;
  /** What was wrong with the proof or token; null: accepted. */
  refusal: string | null;
  nonce: string | null;
  form?: Record<string, string>;
}

export interface DpopMcpServer {
  url: string;
  tokenEndpoint: string;
  seen: SeenRequest[];
  /** A new nonce: proofs with the old one are answered use_dpop_nonce. */
  rotateNonce(): void;
  /** Forgets every access token it issued. */
  revokeAll(): void;
  close(): Promise<void>;
}

const random = () => randomBytes(18).toString('base64url');
const sha256 = (text: string) => createHash('sha256').update(text, 'ascii').digest('base64url');
const ALGS = ['ES256', 'ES384', 'PS256', 'RS256'];

type Proof = { ok: true; jkt: string; nonce: string | null } | { ok: false; error: string };

/** RFC 9449 § 4.3, for a request to `htu` with method `htm` (and the token it carries, if any). */
async function checkProof(...args: Parameters<typeof judgeProof>): Promise<Proof> {
  return judgeProof(...args).catch((error: Error) => ({ ok: false, error: error.message }));
}

async function judgeProof(
  header: string | string[] | undefined,
  htm: string,
  htu: string,
  jtis: Set<string>,
  token?: string,
): Promise<Proof> {
  if (typeof header !== 'string' || header.includes(',')) return { ok: false, error: 'one DPoP header' };
  const protectedHeader = decodeProtectedHeader(header);
  const jwk = protectedHeader.jwk as JWK | undefined;
  if (protectedHeader.typ !== 'dpop+jwt') return { ok: false, error: 'typ' };
  if (!ALGS.includes(protectedHeader.alg ?? '') || !jwk || 'd' in jwk) return { ok: false, error: 'alg/jwk' };
  const { payload } = await jwtVerify(header, await importJWK(jwk, protectedHeader.alg), { typ: 'dpop+jwt' });
  if (typeof payload.jti !== 'string' || jtis.has(payload.jti)) return { ok: false, error: 'jti' };
  jtis.add(payload.jti);
  if (payload.htm !== htm || payload.htu !== htu) return { ok: false, error: 'htm/htu' };
  if (typeof payload.iat !== 'number' || Math.abs(Date.now() / 1000 - payload.iat) > 60)
    return { ok: false, error: 'iat' };
  if (token !== undefined && payload.ath !== sha256(token)) return { ok: false, error: 'ath' };
  const nonce = typeof payload.nonce === 'string' ? payload.nonce : null;
  return { ok: true, jkt: await calculateJwkThumbprint(jwk), nonce };
}

export async function startDpopMcpServer(options: DpopServerOptions = {}): Promise<DpopMcpServer> {
  const { dpop = true, requireNonce = false, unbound = false } = options;
  const seen: SeenRequest[] = [];
  const jtis = new Set<string>();
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  /** token → the key thumbprint it is bound to (null: a Bearer token). */
  const access = new Map<string, string | null>();
  const refresh = new Map<string, string | null>();
  let nonce = random();
  let origin = '';

  const issue = (jkt: string | null) => {
    const pair = { access_token: random(), refresh_token: random(), expires_in: 3600 };
    access.set(pair.access_token, unbound ? null : jkt);
    refresh.set(pair.refresh_token, jkt);
    return { ...pair, token_type: jkt && !unbound ? 'DPoP' : 'Bearer' };
  };

  async function token(req: IncomingMessage, res: ServerResponse) {
    const form = Object.fromEntries(new URLSearchParams(await readBody(req)));
    const proof = req.headers.dpop
      ? await checkProof(req.headers.dpop, 'POST', `${origin}/token`, jtis)
      : null;
    const record = (refusal: string | null) =>
      seen.push({
        path: '/token',
        scheme: null,
        proof: proof !== null,
        refusal,
        nonce: proof?.ok ? proof.nonce : null,
        form,
      });
    if (proof && !proof.ok) {
      record(proof.error);
      return json(res, 400, { error: 'invalid_dpop_proof', error_description: proof.error });
    }
    if (proof && requireNonce && proof.nonce !== nonce) {
      record('use_dpop_nonce');
      return json(res, 400, { error: 'use_dpop_nonce' }, { 'dpop-nonce': nonce });
    }
    const jkt = proof?.jkt ?? null;
    let ok = false;
    if (form.grant_type === 'authorization_code') {
      const grant = codes.get(form.code ?? '');
      codes.delete(form.code ?? '');
      ok = grant?.redirectUri === form.redirect_uri && grant?.challenge === sha256(form.code_verifier ?? '');
    } else if (form.grant_type === 'refresh_token') {
      // A refresh token issued to a key is good with a proof of that key only (§ 5).
      const boundTo = refresh.get(form.refresh_token ?? '');
      ok = boundTo !== undefined && (boundTo === null || boundTo === jkt);
      refresh.delete(form.refresh_token ?? '');
    }
    record(ok ? null : 'invalid_grant');
    return ok ? json(res, 200, issue(jkt)) : json(res, 400, { error: 'invalid_grant' });
  }

  async function mcp(req: IncomingMessage, res: ServerResponse) {
    const body = await readBody(req);
    const [scheme = null, presented = ''] = (req.headers.authorization ?? '').split(' ');
    const boundTo = access.get(presented);
    const refuse = (refusal: string, headers: Record<string, string> = {}) => {
      seen.push({ path: '/mcp', scheme, proof: req.headers.dpop !== undefined, refusal, nonce: null });
      const challenge = `${dpop ? 'DPoP' : 'Bearer'} error="${refusal}", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`;
      return json(res, 401, { error: refusal }, { 'www-authenticate': challenge, ...headers });
    };
    if (boundTo === undefined) return refuse('invalid_token');
    if (boundTo === null) {
      if (scheme !== 'Bearer' || req.headers.dpop) return refuse('invalid_request');
      seen.push({ path: '/mcp', scheme, proof: false, refusal: null, nonce: null });
    } else {
      if (scheme !== 'DPoP') return refuse('invalid_token');
      const proof = await checkProof(req.headers.dpop, req.method ?? '', `${origin}/mcp`, jtis, presented);
      if (!proof.ok || proof.jkt !== boundTo) return refuse('invalid_dpop_proof');
      if (requireNonce && proof.nonce !== nonce) return refuse('use_dpop_nonce', { 'dpop-nonce': nonce });
      seen.push({ path: '/mcp', scheme, proof: true, refusal: null, nonce: proof.nonce });
    }
    const id = body ? (JSON.parse(body) as { id?: unknown }).id : null;
    return json(res, 200, { jsonrpc: '2.0', id, result: {} });
  }

  const http = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const route = `${req.method} ${url.pathname}`;
    if (route === 'GET /.well-known/oauth-protected-resource/mcp')
      return json(res, 200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
    if (route === 'GET /.well-known/oauth-authorization-server')
      return json(res, 200, {
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        registration_endpoint: `${origin}/register`,
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
        ...(dpop ? { dpop_signing_alg_values_supported: ['RS256', 'ES256'] } : {}),
      });
    if (route === 'POST /register') return json(res, 201, { client_id: random() });
    if (route === 'GET /authorize') {
      const code = random();
      const q = url.searchParams;
      codes.set(code, { challenge: q.get('code_challenge') ?? '', redirectUri: q.get('redirect_uri') ?? '' });
      const back = new URL(q.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state') ?? '');
      return res.writeHead(302, { location: back.toString() }).end();
    }
    if (route === 'POST /token') return token(req, res);
    if (url.pathname === '/mcp') return mcp(req, res);
    json(res, 404, { error: 'not_found' });
  });
  const url = await listenLocally(http, '/mcp');
  origin = new URL(url).origin;
  return {
    url,
    tokenEndpoint: `${origin}/token`,
    seen,
    rotateNonce: () => {
      nonce = random();
    },
    revokeAll: () => access.clear(),
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
