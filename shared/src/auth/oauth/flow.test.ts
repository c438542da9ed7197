import { describe, expect, it } from 'vitest';
import { createMcpAccessTokens } from './access-token';
import { decideAuthorization, resourceOf, startAuthorization } from './authorize';
import { acceptableRedirectUri, type OAuthClient, resolveClient } from './clients';
import { OAuthError } from './errors';
import { s256 } from './pkce';
import type { GrantRecord, OAuthServerDeps } from './ports';
import { principalFromAccessToken } from './resource-server';
import { exchangeToken } from './token';

const ISSUER = 'https://console.example.com';
const GATEWAY = 'https://gw.example.com';
const VERIFIER = 'v'.repeat(50);
const REDIRECT = 'http://127.0.0.1:4567/callback';
const USER = '11111111-1111-4111-8111-111111111111';
const SECRET = 's'.repeat(40);

/** The ports over memory: what the flow does with them is under test, not Postgres or Redis. */
function memoryDeps(): OAuthServerDeps & { kvData: Map<string, string> } {
  const kvData = new Map<string, string>();
  const clients = new Map<string, OAuthClient>([
    [
      'cli',
      {
        clientId: 'cli',
        clientName: 'CLI',
        redirectUris: ['http://127.0.0.1/callback'],
        source: 'registered',
        fetchedAt: null,
      },
    ],
  ]);
  const grants = new Map<string, GrantRecord>();
  return {
    kvData,
    issuer: ISSUER,
    gatewayUrl: GATEWAY,
    clients: {
      find: async (id) => clients.get(id) ?? null,
      save: async (c) => void clients.set(c.clientId, c),
    },
    fetchDocument: async () => {
      throw new Error('offline');
    },
    kv: {
      get: async (k) => kvData.get(k) ?? null,
      set: async (k, v) => void kvData.set(k, v),
      del: async (k) => (kvData.delete(k) ? 1 : 0),
    },
    grants: {
      async create(g) {
        const record: GrantRecord = {
          ...g,
          id: crypto.randomUUID(),
          refreshHash: null,
          previousRefreshHash: null,
          createdAt: new Date(),
          lastUsedAt: null,
          revokedAt: null,
        };
        grants.set(record.id, record);
        return record;
      },
      find: async (id) => grants.get(id) ?? null,
      async rotate(id, expected, next) {
        const g = grants.get(id);
        if (!g || g.revokedAt || g.refreshHash !== expected) return false;
        grants.set(id, { ...g, previousRefreshHash: expected, refreshHash: next });
        return true;
      },
      async revoke(id, _reason, now) {
        const g = grants.get(id);
        if (!g || g.revokedAt) return false;
        grants.set(id, { ...g, revokedAt: now, refreshHash: null });
        return true;
      },
    },
    users: { active: async (id) => (id === USER ? { role: 'user' } : null) },
    tokens: createMcpAccessTokens(SECRET),
    now: () => new Date(),
  };
}

async function authorizedCode(deps: OAuthServerDeps, resource?: string) {
  const start = await startAuthorization(
    {
      client_id: 'cli',
      redirect_uri: REDIRECT,
      response_type: 'code',
      code_challenge: await s256(VERIFIER),
      code_challenge_method: 'S256',
      state: 'st',
      resource,
    },
    deps,
  );
  if (start.kind !== 'consent') throw new Error(start.url);
  const { redirectTo } = await decideAuthorization(start.pending.id, USER, true, deps);
  return new URL(redirectTo);
}

const token = (form: Record<string, string>, deps: OAuthServerDeps) => exchangeToken(form, deps);

describe('authorization code with PKCE', () => {
  it('answers with code, state and iss on a loopback redirect of any port; the code is good once', async () => {
    const deps = memoryDeps();
    const back = await authorizedCode(deps);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('st');
    expect(back.searchParams.get('iss')).toBe(ISSUER);
    const form = {
      grant_type: 'authorization_code',
      code: back.searchParams.get('code') ?? '',
      code_verifier: VERIFIER,
      client_id: 'cli',
      redirect_uri: REDIRECT,
    };
    const tokens = await token(form, deps);
    expect(tokens).toMatchObject({ token_type: 'Bearer', scope: 'mcp' });
    await expect(token(form, deps)).rejects.toMatchObject({ code: 'invalid_grant' });
    const server = { issuer: ISSUER, gatewayUrl: GATEWAY, tokens: deps.tokens, isRevoked: async () => false };
    expect(await principalFromAccessToken(tokens.access_token, `${GATEWAY}/mcp`, server)).toEqual({
      kind: 'user',
      userId: USER,
      role: 'user',
    });
    // Another resource, another issuer: not this token's.
    expect(await principalFromAccessToken(tokens.access_token, `${GATEWAY}/mcp/github`, server)).toBeNull();
    expect(
      await principalFromAccessToken(tokens.access_token, `${GATEWAY}/mcp`, {
        ...server,
        issuer: 'https://other',
      }),
    ).toBeNull();
  });

  it('refuses a wrong verifier, another client, and an unregistered redirect (without redirecting to it)', async () => {
    const deps = memoryDeps();
    const code = (await authorizedCode(deps)).searchParams.get('code') ?? '';
    await expect(
      token(
        { grant_type: 'authorization_code', code, code_verifier: 'w'.repeat(50), client_id: 'cli' },
        deps,
      ),
    ).rejects.toMatchObject({ code: 'invalid_grant' });
    const other = (await authorizedCode(deps)).searchParams.get('code') ?? '';
    await expect(
      token(
        { grant_type: 'authorization_code', code: other, code_verifier: VERIFIER, client_id: 'else' },
        deps,
      ),
    ).rejects.toMatchObject({ code: 'invalid_grant' });
    await expect(
      startAuthorization(
        { client_id: 'cli', redirect_uri: 'https://evil.example.com/cb', response_type: 'code' },
        deps,
      ),
    ).rejects.toBeInstanceOf(OAuthError);
  });

  it('sends other problems back to the client: no PKCE, plain PKCE, an unknown scope, a foreign resource', async () => {
    const deps = memoryDeps();
    const ask = (extra: Record<string, string>) =>
      startAuthorization(
        {
          client_id: 'cli',
          redirect_uri: REDIRECT,
          response_type: 'code',
          code_challenge: 'c'.repeat(43),
          code_challenge_method: 'S256',
          ...extra,
        },
        deps,
      );
    const errorOf = async (extra: Record<string, string>) => {
      const start = await ask(extra);
      return start.kind === 'redirect' ? new URL(start.url).searchParams.get('error') : 'consent';
    };
    expect(await errorOf({ code_challenge: '' })).toBe('invalid_request');
    expect(await errorOf({ code_challenge_method: 'plain' })).toBe('invalid_request');
    expect(await errorOf({ scope: 'mcp admin' })).toBe('invalid_scope');
    expect(await errorOf({ resource: 'https://elsewhere.example.com/mcp' })).toBe('invalid_target');
    expect(await errorOf({ response_type: 'token' })).toBe('unsupported_response_type');
    expect(await errorOf({ resource: `${GATEWAY}/mcp/github` })).toBe('consent');
  });
});

describe('refresh tokens', () => {
  it('rotate; the replaced one coming back ends the grant, and its rotation with it', async () => {
    const deps = memoryDeps();
    const code = (await authorizedCode(deps)).searchParams.get('code') ?? '';
    const first = await token(
      { grant_type: 'authorization_code', code, code_verifier: VERIFIER, client_id: 'cli' },
      deps,
    );
    const second = await token(
      { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: 'cli' },
      deps,
    );
    expect(second.refresh_token).not.toBe(first.refresh_token);
    await expect(
      token({ grant_type: 'refresh_token', refresh_token: first.refresh_token }, deps),
    ).rejects.toMatchObject({ code: 'invalid_grant' });
    await expect(
      token({ grant_type: 'refresh_token', refresh_token: second.refresh_token }, deps),
    ).rejects.toMatchObject({ code: 'invalid_grant' });
    const grantId = second.refresh_token.split('.')[0] ?? '';
    expect(deps.kvData.has(`sluice:oauth:revoked:${grantId}`)).toBe(true);
  });
});

describe('clients and resources', () => {
  it('takes https, loopback http and private-use schemes as redirect URIs, nothing else', () => {
    expect(
      [
        'https://app.example.com/cb',
        'http://localhost:3334/cb',
        'http://[::1]/cb',
        'com.example.app:/oauth',
      ].map(acceptableRedirectUri),
    ).toEqual([true, true, true, true]);
    expect(
      ['http://example.com/cb', 'javascript:alert(1)', 'https://a.example/cb#frag', 'not a url'].map(
        acceptableRedirectUri,
      ),
    ).toEqual([false, false, false, false]);
  });

  it('knows a client by its metadata document, which must name itself', async () => {
    const store = new Map<string, OAuthClient>();
    const clients = {
      find: async (id: string) => store.get(id) ?? null,
      save: async (c: OAuthClient) => void store.set(c.clientId, c),
    };
    const id = 'https://agent.example.com/oauth/client.json';
    const doc = { client_id: id, client_name: 'Agent', redirect_uris: ['http://127.0.0.1/cb'] };
    const client = await resolveClient(id, clients, async () => doc, new Date());
    expect(client).toMatchObject({ clientName: 'Agent', source: 'metadata_document' });
    const liar = 'https://agent.example.com/other.json';
    await expect(resolveClient(liar, clients, async () => doc, new Date())).rejects.toMatchObject({
      code: 'invalid_client',
    });
  });

  it('tokens are for the gateway /mcp or /mcp/{server}, canonical, nothing else', () => {
    expect(resourceOf(undefined, GATEWAY)).toBe(`${GATEWAY}/mcp`);
    expect(resourceOf(`${GATEWAY}/mcp/github`, GATEWAY)).toBe(`${GATEWAY}/mcp/github`);
    expect(resourceOf(`${GATEWAY}/v1/chat/completions`, GATEWAY)).toBeNull();
    expect(resourceOf(`${GATEWAY}/mcp?x=1`, GATEWAY)).toBeNull();
    expect(resourceOf(undefined, null)).toBeNull();
  });
});
