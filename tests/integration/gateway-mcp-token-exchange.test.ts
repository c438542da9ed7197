// Enterprise-managed authorization (docs/mcp.md): a server of auth_type oauth_token_exchange, its
// authorization server and the company's identity provider over real HTTP (tests/fakes). A user
// connects with their ID token; Sluice exchanges it at the identity provider for an identity
// assertion grant and presents that, as its client, at the server's authorization server; the
// gateway's tool calls through /mcp/<server> (the official SDK client) carry that user's token,
// exchanged again when it expires or is refused; a barred user is asked to connect again.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { upstreamOAuthStore } from '../../shared/src/db/repos/mcp-oauth-repo';
import { mcpUserTokens } from '../../shared/src/db/schema';
import { connectThroughSignIn } from '../../shared/src/mcp/registry/sign-in-connect';
import { type EnterpriseIdp, startEnterpriseIdp, TOKEN_EXCHANGE } from '../fakes/enterprise-idp';
import { JWT_BEARER, type MachineMcpServer, startMachineMcpServer } from '../fakes/mcp-machine-server';
import { callWhoami } from '../helpers/mcp-whoami';
import { type ProxyHarness, proxyHarness } from '../helpers/proxy-harness';

const CLIENT_ID = 'sluice at tools';
const CLIENT_SECRET = 'tools/secret&=';
const IDP_CLIENT = 'sluice-at-idp';
const USER = 'alice@example.com';

let h: ProxyHarness;
let idp: EnterpriseIdp;
let upstream: MachineMcpServer;
let server: { id: string; name: string } & Record<string, unknown>;

const connect = (idToken: string) =>
  h.admin('POST', `/api/mcp/connections/${server.id}/id-token`, { id_token: idToken });

async function storedTokens() {
  const rows = await h.console.deps.db
    .select()
    .from(mcpUserTokens)
    .where(and(eq(mcpUserTokens.serverId, server.id)));
  return rows[0];
}

beforeAll(async () => {
  h = await proxyHarness('gateway_mcp_exchange');
  idp = await startEnterpriseIdp({ clientId: IDP_CLIENT, grantClientId: CLIENT_ID });
  upstream = await startMachineMcpServer({
    clients: { [CLIENT_ID]: { secret: CLIENT_SECRET } },
    workloadKey: idp.grantKey,
    tokenEndpointAuthMethods: ['client_secret_basic'],
    expiresIn: 8,
  });
  const created = await h.admin('POST', '/api/mcp/servers', {
    name: 'tools',
    endpoint_url: upstream.url,
    auth_type: 'oauth_token_exchange',
    oauth_client_id: CLIENT_ID,
    oauth_client_secret: CLIENT_SECRET,
    idp_issuer: idp.issuer,
    idp_client_id: IDP_CLIENT,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  server = created.body;
}, 60_000);
afterAll(async () => {
  await upstream?.close();
  await idp?.close();
  await h?.close();
});

describe('a server where each user connects with their ID token', () => {
  it('shows the identity provider and both clients, never a secret', () => {
    expect(server).toMatchObject({
      auth_type: 'oauth_token_exchange',
      oauth_client_id: CLIENT_ID,
      has_oauth_client_secret: true,
      idp_issuer: idp.issuer,
      idp_client_id: IDP_CLIENT,
      has_idp_client_secret: false,
    });
    expect(JSON.stringify(server)).not.toContain(CLIENT_SECRET);
  });

  it('lists it among the user’s connections, to connect with an ID token, and asks for one first', async () => {
    const listed = await h.admin('GET', '/api/mcp/connections');
    expect(listed.body).toContainEqual(
      expect.objectContaining({ server_id: server.id, connect_with: 'id_token', connected: false }),
    );
    const discovered = await h.admin('POST', `/api/mcp/servers/${server.id}/discover`);
    expect(discovered.status).toBe(409);
    expect(discovered.body.error.message).toContain('Connect your tools account first');
    expect(idp.exchanges).toHaveLength(0);
  });

  it.each([
    ['a token that is no JWT', async () => 'not-a-jwt', 'id_token is not a JWT'],
    [
      'a token of another issuer',
      () => idp.idToken(USER, { issuer: 'https://other.example.com' }),
      'not issued by',
    ],
    ['a token for another client', () => idp.idToken(USER, { audience: 'someone-else' }), 'not issued to'],
    ['an expired token', () => idp.idToken(USER, { expiresIn: '-1m' }), 'has expired'],
  ])('refuses %s (400) before the identity provider sees it', async (_case, make, said) => {
    const answer = await connect(await make());
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.error.message).toContain(said);
    expect(idp.exchanges).toHaveLength(0);
  });

  it('exchanges the ID token at once, presents the grant as its client, and calls with the user’s token', async () => {
    const idToken = await idp.idToken(USER);
    const connected = await connect(idToken);
    expect(connected.status, JSON.stringify(connected.body)).toBe(200);
    expect(connected.body).toMatchObject({ server_id: server.id, subject: USER });
    expect(idp.exchanges[0]).toEqual({
      grant_type: TOKEN_EXCHANGE,
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      audience: upstream.issuer,
      resource: upstream.url,
      subject_token: idToken,
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      client_id: IDP_CLIENT,
    });
    const grant = upstream.tokenRequests.at(-1);
    expect(grant?.form).toMatchObject({ grant_type: JWT_BEARER, resource: upstream.url });
    expect(grant?.form.assertion).toBe((await exchangedGrant()) ?? '');
    expect(grant?.authorization).toMatch(/^Basic /);

    const stored = await storedTokens();
    expect(stored?.idTokenEncrypted).toBeTruthy();
    expect(stored?.idTokenEncrypted).not.toContain(idToken.split('.')[1]);

    const discovered = await h.admin('POST', `/api/mcp/servers/${server.id}/discover`);
    expect(discovered.status, JSON.stringify(discovered.body)).toBe(200);
    await h.gateway.readVersions();
    expect(await callWhoami(h, server.name)).toBe(`Called by user:${USER}`);
    expect(idp.exchanges).toHaveLength(1);
  });

  it('exchanges the ID token again when the user’s token nears its expiry, and when the server refuses it', async () => {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    try {
      // 8 s tokens are replaced 2 s early: the clock is moved rather than waited out.
      vi.setSystemTime(Date.now() + 6_500);
      expect(await callWhoami(h, server.name)).toBe(`Called by user:${USER}`);
      expect(idp.exchanges).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
    upstream.revokeAll();
    expect(await callWhoami(h, server.name)).toBe(`Called by user:${USER}`);
    expect(idp.exchanges).toHaveLength(3);
  });

  it('asks a user the identity provider has barred to connect again, and forgets their ID token', async () => {
    idp.bar(USER);
    upstream.revokeAll();
    const refused = await callWhoami(h, server.name).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: -32042 });
    expect((refused as Error).message).toContain('Connect your tools account first');
    expect(await storedTokens()).toBeUndefined();
    const listed = await h.admin('GET', '/api/mcp/connections');
    expect(listed.body).toContainEqual(expect.objectContaining({ server_id: server.id, connected: false }));
  });
});

describe('a sign-in through the same identity provider', () => {
  it('connects the servers that trust it with the ID token it brought, and no other', async () => {
    const other = await h.admin('POST', '/api/mcp/servers', {
      name: 'elsewhere',
      endpoint_url: upstream.url,
      auth_type: 'oauth_token_exchange',
      oauth_client_id: CLIENT_ID,
      oauth_client_secret: CLIENT_SECRET,
      idp_issuer: 'https://another-idp.example.com',
      idp_client_id: IDP_CLIENT,
    });
    expect(other.status).toBe(201);
    const user = 'bob@example.com';
    const me = (await h.admin('GET', '/api/auth/me')).body as { id: string };
    const warned: string[] = [];
    const connected = await connectThroughSignIn(
      {
        db: h.console.deps.db,
        secrets: h.console.deps.secrets,
        store: upstreamOAuthStore(h.console.deps.db, h.console.deps.secrets),
        fetch,
        now: () => new Date(),
        warn: (message) => void warned.push(message),
      },
      me.id,
      { issuer: `${idp.issuer}/`, clientId: IDP_CLIENT, idToken: await idp.idToken(user) },
    );
    expect(connected).toEqual(['tools']);
    expect(warned).toEqual([]);
    expect(idp.exchanges.at(-1)).toMatchObject({
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
    });
    await h.gateway.readVersions();
    expect(await callWhoami(h, server.name)).toBe(`Called by user:${user}`);
  });
});

describe('the console API', () => {
  const url = 'http://127.0.0.1:9/mcp';
  it.each([
    ['no identity provider', { oauth_client_id: 'c', idp_client_id: 'i' }, 'idp_issuer'],
    [
      'no client at the identity provider',
      { oauth_client_id: 'c', idp_issuer: 'https://idp.example.com' },
      'idp_client_id',
    ],
    [
      'no client at the server',
      { idp_issuer: 'https://idp.example.com', idp_client_id: 'i' },
      'oauth_client_id',
    ],
  ])('refuses a token-exchange server with %s (422)', async (_case, fields, named) => {
    const res = await h.admin('POST', '/api/mcp/servers', {
      name: 'refused',
      endpoint_url: url,
      auth_type: 'oauth_token_exchange',
      ...fields,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(JSON.stringify(res.body)).toContain(named);
  });

  it('refuses identity provider fields on other auth types, and drops them on a switch', async () => {
    const refused = await h.admin('POST', '/api/mcp/servers', {
      name: 'refused',
      endpoint_url: url,
      auth_type: 'oauth',
      idp_issuer: 'https://idp.example.com',
    });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toContain('only allowed for auth_type oauth_token_exchange');
    const created = await h.admin('POST', '/api/mcp/servers', {
      name: 'switching-idp',
      endpoint_url: url,
      auth_type: 'oauth_token_exchange',
      oauth_client_id: 'c',
      idp_issuer: 'https://idp.example.com',
      idp_client_id: 'i',
      idp_client_secret: 'idp-secret',
    });
    expect(created.body).toMatchObject({ has_idp_client_secret: true });
    const path = `/api/mcp/servers/${created.body.id}`;
    const kept = await h.admin('PATCH', path, { description: 'same' });
    expect(kept.body).toMatchObject({ idp_issuer: 'https://idp.example.com', has_idp_client_secret: true });
    const switched = await h.admin('PATCH', path, { auth_type: 'oauth' });
    expect(switched.body).toMatchObject({
      idp_issuer: null,
      idp_client_id: null,
      has_idp_client_secret: false,
    });
    const notHere = await h.admin('POST', `/api/mcp/connections/${created.body.id}/id-token`, {
      id_token: 'x',
    });
    expect(notHere.status).toBe(400);
  });
});

/** The grant the identity provider issued last (its answer is not kept; the AS saw it). */
async function exchangedGrant(): Promise<string | undefined> {
  return upstream.tokenRequests.findLast((r) => r.form.grant_type === JWT_BEARER)?.form.assertion;
}
