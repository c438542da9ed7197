// Servers Sluice signs in to as itself (docs/mcp.md): auth_type oauth_client_credentials (a client
// secret in HTTP Basic, or private_key_jwt assertions) and oauth_jwt_bearer (a workload JWT),
// against an MCP server and its own authorization server over real HTTP (tests/fakes). A tool
// call through /mcp/<server> with the official SDK client carries the token Sluice fetched;
// the token is reused until shortly before it expires, fetched again after, and on a 401; a
// refused grant is the caller's JSON-RPC error naming the server and the answer, with no retry
// and no other grant; secrets, keys and workload JWTs are sealed and never returned.
import { eq } from 'drizzle-orm';
import { exportPKCS8, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mcpServers } from '../../shared/src/db/schema';
import { JWT_BEARER, type MachineMcpServer, startMachineMcpServer } from '../fakes/mcp-machine-server';
import { callWhoami } from '../helpers/mcp-whoami';
import { type ProxyHarness, proxyHarness } from '../helpers/proxy-harness';

let h: ProxyHarness;
const running: MachineMcpServer[] = [];
/** A client id and secret with characters RFC 6749 § 2.3.1 has Sluice form-urlencode. */
const CLIENT_ID = 'sluice:m2m client';
const CLIENT_SECRET = 'c5/+ secret:é&=';

async function register(body: Record<string, unknown>) {
  const created = await h.admin('POST', '/api/mcp/servers', body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const found = await h.admin('POST', `/api/mcp/servers/${created.body.id}/discover`);
  expect(found.status, JSON.stringify(found.body)).toBe(200);
  expect(found.body.tools.map((t: { name: string }) => t.name)).toEqual(['whoami']);
  return created.body as { id: string; name: string } & Record<string, unknown>;
}

async function workloadJwt(key: CryptoKey, audience: string) {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256' })
    .setIssuer('https://idp.example.com')
    .setSubject('billing-agent')
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(key);
}

beforeAll(async () => {
  h = await proxyHarness('gateway_mcp_machine');
}, 60_000);
afterAll(async () => {
  await Promise.all(running.map((s) => s.close()));
  await h?.close();
});

describe('client credentials with a client secret (HTTP Basic)', () => {
  it('calls the tool with the token Sluice fetched, reuses it, and fetches again after it expires', async () => {
    const upstream = await startMachineMcpServer({
      clients: { [CLIENT_ID]: { secret: CLIENT_SECRET } },
      tokenEndpointAuthMethods: ['client_secret_basic'],
      expiresIn: 8,
    });
    running.push(upstream);
    const asked = Date.now();
    await register({
      name: 'internal',
      endpoint_url: upstream.url,
      auth_type: 'oauth_client_credentials',
      oauth_client_id: CLIENT_ID,
      oauth_client_secret: CLIENT_SECRET,
    });
    const answered = Date.now();
    // Discovery fetched the first token; the gateway finds it in Redis.
    expect(upstream.tokenRequests).toHaveLength(1);
    expect(upstream.tokenRequests[0]?.form).toEqual({
      grant_type: 'client_credentials',
      resource: upstream.url,
    });
    await h.gateway.readVersions();
    expect(await callWhoami(h, 'internal')).toBe(`Called by ${CLIENT_ID}`);
    expect(await callWhoami(h, 'internal')).toBe(`Called by ${CLIENT_ID}`);
    expect(upstream.tokenRequests).toHaveLength(1);
    const first = upstream.presented[0];
    expect(new Set(upstream.presented)).toEqual(new Set([first]));

    // Fetched again 2 s before its 8 s are up (a quarter of a short lifetime): the clock is
    // moved rather than waited out (the fake server's 8 s are on the same clock).
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    try {
      vi.setSystemTime(asked + 5_900);
      expect(await callWhoami(h, 'internal')).toBe(`Called by ${CLIENT_ID}`);
      expect(upstream.tokenRequests).toHaveLength(1);
      vi.setSystemTime(answered + 6_100);
      expect(await callWhoami(h, 'internal')).toBe(`Called by ${CLIENT_ID}`);
      expect(upstream.tokenRequests).toHaveLength(2);
      expect(upstream.presented.at(-1)).not.toBe(first);
    } finally {
      vi.useRealTimers();
    }
  });

  it('fetches a new token once when the server refuses the one it has (401)', async () => {
    const upstream = running[0] as MachineMcpServer;
    const before = upstream.tokenRequests.length;
    upstream.revokeAll();
    expect(await callWhoami(h, 'internal')).toBe(`Called by ${CLIENT_ID}`);
    expect(upstream.tokenRequests).toHaveLength(before + 1);
  });
});

describe('client credentials with a private key (private_key_jwt)', () => {
  it('signs in with an assertion the authorization server verifies, and keeps the key write-only', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const pem = await exportPKCS8(privateKey);
    const upstream = await startMachineMcpServer({
      clients: { 'sluice-keyed': { publicKey } },
      tokenEndpointAuthMethods: ['private_key_jwt'],
      expiresIn: 600,
    });
    running.push(upstream);
    const created = await register({
      name: 'keyed',
      endpoint_url: upstream.url,
      auth_type: 'oauth_client_credentials',
      oauth_client_id: 'sluice-keyed',
      oauth_private_key: pem,
    });
    expect(created).toMatchObject({ has_oauth_private_key: true, has_oauth_client_secret: false });
    const [sent] = upstream.tokenRequests;
    expect(sent?.authorization).toBeUndefined();
    expect(sent?.form).toMatchObject({
      grant_type: 'client_credentials',
      client_id: 'sluice-keyed',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    });
    await h.gateway.readVersions();
    expect(await callWhoami(h, 'keyed')).toBe('Called by sluice-keyed');

    const stored = (
      await h.console.deps.db.select().from(mcpServers).where(eq(mcpServers.id, created.id))
    )[0];
    expect(stored?.oauthPrivateKeyEncrypted).not.toContain('PRIVATE KEY');
    expect(await h.console.deps.secrets.decrypt(stored?.oauthPrivateKeyEncrypted as string)).toBe(pem);
    const listed = await h.admin('GET', '/api/mcp/servers');
    const one = await h.admin('GET', `/api/mcp/servers/${created.id}`);
    for (const answer of [JSON.stringify(created), JSON.stringify(listed.body), JSON.stringify(one.body)]) {
      expect(answer).not.toContain('PRIVATE KEY');
      expect(answer).not.toContain(CLIENT_SECRET);
    }
  });
});

describe('a workload JWT (jwt-bearer grant)', () => {
  it('is exchanged for the token; a refused one is the caller’s JSON-RPC error, asked once, no other grant', async () => {
    const idp = await generateKeyPair('ES256');
    const upstream = await startMachineMcpServer({
      clients: {},
      workloadKey: idp.publicKey,
      tokenEndpointAuthMethods: ['none'],
      expiresIn: 600,
    });
    running.push(upstream);
    const jwt = await workloadJwt(idp.privateKey, upstream.issuer);
    const created = await register({
      name: 'workload',
      endpoint_url: upstream.url,
      auth_type: 'oauth_jwt_bearer',
      auth_secret: jwt,
    });
    expect(upstream.tokenRequests[0]?.form).toEqual({
      grant_type: JWT_BEARER,
      assertion: jwt,
      resource: upstream.url,
    });
    await h.gateway.readVersions();
    expect(await callWhoami(h, 'workload')).toBe('Called by workload:billing-agent');
    expect(JSON.stringify(created)).not.toContain(jwt);

    // A JWT for another audience: the authorization server answers invalid_grant.
    const wrong = await workloadJwt(idp.privateKey, 'https://elsewhere.example.com');
    const patched = await h.admin('PATCH', `/api/mcp/servers/${created.id}`, { auth_secret: wrong });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const before = upstream.tokenRequests.length;
    await h.gateway.readVersions();
    const refused = await callWhoami(h, 'workload').catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: -32603 });
    const message = (refused as Error).message;
    expect(message).toContain(
      `Sluice cannot sign in to MCP server workload: its authorization server ${upstream.issuer}`,
    );
    expect(message).toContain('answered invalid_grant: workload JWT refused');
    expect(upstream.tokenRequests.slice(before).map((r) => r.form.grant_type)).toEqual([JWT_BEARER]);

    const discovered = await h.admin('POST', `/api/mcp/servers/${created.id}/discover`);
    expect(discovered.status).toBe(502);
    expect(discovered.body.error.message).toContain('answered invalid_grant');
  });
});

describe('the console API', () => {
  const url = 'http://127.0.0.1:9/mcp';
  it.each([
    [
      'a client without its id',
      { auth_type: 'oauth_client_credentials', oauth_client_secret: 's' },
      'oauth_client_id',
    ],
    [
      'a client without a secret or key',
      { auth_type: 'oauth_client_credentials', oauth_client_id: 'c' },
      'oauth_client_secret',
    ],
    [
      'a secret and a key both',
      {
        auth_type: 'oauth_client_credentials',
        oauth_client_id: 'c',
        oauth_client_secret: 's',
        oauth_private_key: 'x',
      },
      'oauth_private_key',
    ],
    [
      'a key that is no PEM',
      { auth_type: 'oauth_client_credentials', oauth_client_id: 'c', oauth_private_key: 'x' },
      'PKCS#8',
    ],
    [
      'a PEM that holds no key',
      {
        auth_type: 'oauth_client_credentials',
        oauth_client_id: 'c',
        oauth_private_key: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----',
      },
      'oauth_private_key',
    ],
    ['a workload JWT missing', { auth_type: 'oauth_jwt_bearer' }, 'auth_secret'],
    [
      'a workload JWT that is no JWT',
      { auth_type: 'oauth_jwt_bearer', auth_secret: 'not-a-jwt' },
      'auth_secret',
    ],
    [
      'a key for a bearer server',
      { auth_type: 'bearer', auth_secret: 't', oauth_private_key: 'x' },
      'oauth_private_key',
    ],
    [
      'a secret for client credentials',
      { auth_type: 'oauth_client_credentials', auth_secret: 't' },
      'auth_secret',
    ],
  ])('refuses %s (422)', async (_case, fields, named) => {
    const res = await h.admin('POST', '/api/mcp/servers', { name: 'refused', endpoint_url: url, ...fields });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(JSON.stringify(res.body)).toContain(named);
  });

  it('keeps, replaces or drops the client secret and key on PATCH', async () => {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const pem = await exportPKCS8(privateKey);
    const created = await h.admin('POST', '/api/mcp/servers', {
      name: 'switching',
      endpoint_url: url,
      auth_type: 'oauth_client_credentials',
      oauth_client_id: 'c',
      oauth_client_secret: 's',
    });
    expect(created.status).toBe(201);
    const path = `/api/mcp/servers/${created.body.id}`;
    const kept = await h.admin('PATCH', path, { description: 'same client' });
    expect(kept.body).toMatchObject({ has_oauth_client_secret: true, has_oauth_private_key: false });
    const keyed = await h.admin('PATCH', path, { oauth_private_key: pem });
    expect(keyed.body).toMatchObject({ has_oauth_client_secret: false, has_oauth_private_key: true });
    const perUser = await h.admin('PATCH', path, { auth_type: 'oauth' });
    expect(perUser.body).toMatchObject({ oauth_client_id: 'c', has_oauth_private_key: false });
    const bearer = await h.admin('PATCH', path, { auth_type: 'bearer', auth_secret: 'x' });
    expect(bearer.body).toMatchObject({ oauth_client_id: null, has_oauth_client_secret: false });
    const stored = (
      await h.console.deps.db.select().from(mcpServers).where(eq(mcpServers.id, created.body.id))
    )[0];
    expect(stored).toMatchObject({ oauthClientSecretEncrypted: null, oauthPrivateKeyEncrypted: null });
  });
});
