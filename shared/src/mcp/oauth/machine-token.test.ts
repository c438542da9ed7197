import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../../secrets/secret-box';
import { toBase64Url } from '../../util/encoding';
import type { MachineCredentials } from '../ports';
import { JWT_BEARER_GRANT } from './machine-grants';
import { createMachineTokens } from './machine-target';
import { MachineSignInFailed, requestMachineToken } from './machine-token';

const SERVER = { id: 's1', name: 'reports', endpointUrl: 'https://mcp.example.com/mcp' };
const ISSUER = 'https://as.example.com';
const WORKLOAD_JWT = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ3b3JrbG9hZCJ9.c2ln';

const clientCredentials: MachineCredentials = {
  grant: 'client_credentials',
  clientId: 'sluice',
  clientSecret: 'shh',
  privateKey: null,
  assertion: null,
};
const jwtBearer: MachineCredentials = {
  grant: 'jwt_bearer',
  clientId: null,
  clientSecret: null,
  privateKey: null,
  assertion: WORKLOAD_JWT,
};

/**
 * The server and its authorization server as fetch answers them: a 401 naming the resource
 * metadata, that metadata, the authorization server's metadata, and a token endpoint.
 */
function authorizationServer(
  token: (form: URLSearchParams, headers: Headers) => Response,
  metadata: Record<string, unknown> = {},
) {
  const tokenRequests: Array<{ form: URLSearchParams; headers: Headers }> = [];
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = request.url;
    if (url === SERVER.endpointUrl)
      return new Response(null, {
        status: 401,
        headers: {
          'www-authenticate': `Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"`,
        },
      });
    if (url === 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp')
      return Response.json({
        resource: SERVER.endpointUrl,
        authorization_servers: [ISSUER],
        scopes_supported: ['reports:read'],
      });
    if (url === `${ISSUER}/.well-known/oauth-authorization-server`)
      return Response.json({ issuer: ISSUER, token_endpoint: `${ISSUER}/token`, ...metadata });
    if (url === `${ISSUER}/token`) {
      const form = new URLSearchParams(await request.text());
      tokenRequests.push({ form, headers: request.headers });
      return token(form, request.headers);
    }
    return new Response('not found', { status: 404 });
  }) as typeof fetch;
  return { fetchImpl, tokenRequests };
}

let issued = 0;
const grant =
  (expiresIn = 600) =>
  () =>
    Response.json({ access_token: `at-${++issued}`, token_type: 'Bearer', expires_in: expiresIn });

describe('a token for a server Sluice signs in to as itself', () => {
  it('is a client_credentials grant for the resource and its scopes, the client in HTTP Basic', async () => {
    const now = new Date();
    const as = authorizationServer(grant(600));
    const token = await requestMachineToken(SERVER, clientCredentials, {
      fetch: as.fetchImpl,
      now: () => now,
    });
    expect(token.accessToken).toMatch(/^at-/);
    // Fetched again 30 s before it expires.
    expect(token.refreshAt).toBe(now.getTime() + 570_000);
    const [sent] = as.tokenRequests;
    expect(Object.fromEntries(sent?.form ?? [])).toEqual({
      grant_type: 'client_credentials',
      resource: SERVER.endpointUrl,
      scope: 'reports:read',
    });
    expect(sent?.headers.get('authorization')).toBe(`Basic ${btoa('sluice:shh')}`);
  });

  it('presents the workload JWT once: a refusal is the answer, not retried and no other grant tried', async () => {
    const as = authorizationServer(() =>
      Response.json(
        { error: 'invalid_grant', error_description: 'JWT assertion is expired' },
        { status: 400 },
      ),
    );
    const tokens = createMachineTokens({
      kv: memoryKv(),
      secrets: await box(),
      fetch: as.fetchImpl,
      now: () => new Date(),
    });
    const failure = await tokens.token({ ...SERVER, machine: jwtBearer }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MachineSignInFailed);
    expect((failure as MachineSignInFailed).message).toBe(
      `Sluice cannot sign in to MCP server reports: its authorization server ${ISSUER} answered invalid_grant: JWT assertion is expired`,
    );
    expect((failure as MachineSignInFailed).data).toEqual({
      server: 'reports',
      authorization_server: ISSUER,
      error: 'invalid_grant',
      error_description: 'JWT assertion is expired',
    });
    expect(as.tokenRequests.map((r) => r.form.get('grant_type'))).toEqual([JWT_BEARER_GRANT]);
    expect(as.tokenRequests[0]?.form.get('assertion')).toBe(WORKLOAD_JWT);
  });

  it('is not asked for where the authorization server does not offer the grant', async () => {
    const as = authorizationServer(grant(), { grant_types_supported: ['authorization_code'] });
    const failure = requestMachineToken(SERVER, clientCredentials, {
      fetch: as.fetchImpl,
      now: () => new Date(),
    });
    await expect(failure).rejects.toThrow(
      `its authorization server ${ISSUER} does not offer the client_credentials grant`,
    );
    expect(as.tokenRequests).toHaveLength(0);
  });
});

describe('the tokens Sluice holds', () => {
  it('are reused until shortly before they expire, shared sealed through Redis, then fetched again', async () => {
    let now = Date.now();
    const kv = memoryKv();
    const secrets = await box();
    const as = authorizationServer(grant(120));
    const deps = { kv, secrets, fetch: as.fetchImpl, now: () => new Date(now) };
    const server = { ...SERVER, machine: clientCredentials };
    const isolate = createMachineTokens(deps);
    const [first, concurrent] = await Promise.all([isolate.token(server), isolate.token(server)]);
    expect(concurrent).toBe(first);
    expect(await isolate.token(server)).toBe(first);
    // Another isolate finds it in Redis, sealed.
    expect(await createMachineTokens(deps).token(server)).toBe(first);
    expect(String(kv.values.get('sluice:mcp:machine-token:s1'))).not.toContain(first);
    expect(as.tokenRequests).toHaveLength(1);
    now += 91_000;
    const second = await isolate.token(server);
    expect(second).not.toBe(first);
    expect(as.tokenRequests).toHaveLength(2);
  });

  it('are fetched again once when the server refuses one, and not reused for changed credentials', async () => {
    const as = authorizationServer(grant());
    const tokens = createMachineTokens({
      kv: memoryKv(),
      secrets: await box(),
      fetch: as.fetchImpl,
      now: () => new Date(),
    });
    const server = { ...SERVER, machine: clientCredentials };
    const refused = await tokens.token(server);
    const [renewed, alsoRenewed] = await Promise.all([
      tokens.renew(server, refused),
      tokens.renew(server, refused),
    ]);
    expect(renewed).not.toBe(refused);
    expect(alsoRenewed).toBe(renewed);
    expect(as.tokenRequests).toHaveLength(2);
    const rotated = await tokens.token({ ...SERVER, machine: { ...clientCredentials, clientSecret: 'new' } });
    expect(rotated).not.toBe(renewed);
    expect(as.tokenRequests).toHaveLength(3);
  });
});

async function box() {
  return createSecretBox(toBase64Url(crypto.getRandomValues(new Uint8Array(32))));
}

/** Redis as OAuthKv uses it (get, set with EX, del). */
function memoryKv() {
  const values = new Map<string, string>();
  return {
    values,
    get: async (key: string) => values.get(key) ?? null,
    set: async (key: string, value: string) => void values.set(key, value),
    del: async (key: string) => (values.delete(key) ? 1 : 0),
  };
}
