import { describe, expect, it } from 'vitest';
import { upstreamAccessToken } from './connect';
import type { UpstreamOAuthDeps, UpstreamTokens } from './ports';

const NOW = new Date('2026-11-29T12:00:00Z');
const server = { id: 's1', name: 'hub', endpointUrl: 'https://hub.example.com/mcp' };
const client = {
  serverId: 's1',
  issuer: 'https://hub.example.com',
  authorizationEndpoint: 'https://hub.example.com/authorize',
  tokenEndpoint: 'https://hub.example.com/token',
  clientId: 'sluice',
  clientSecret: null,
  resource: 'https://hub.example.com/mcp',
  scope: null,
  tokenAuthMethod: 'none' as const,
  issSupported: false,
};

function deps(tokens: UpstreamTokens | null, answer: () => Response) {
  const store = new Map<string, UpstreamTokens>(tokens ? [['s1:u1', tokens]] : []);
  const sent: URLSearchParams[] = [];
  const d: UpstreamOAuthDeps = {
    store: {
      client: async () => client,
      saveClient: async () => {},
      tokens: async (s, u) => store.get(`${s}:${u}`) ?? null,
      saveTokens: async (s, u, t) => void store.set(`${s}:${u}`, t),
      deleteTokens: async (s, u) => store.delete(`${s}:${u}`),
    },
    kv: { get: async () => null, set: async () => {}, del: async () => 0 },
    fetch: (async (_url: string, init: RequestInit) => {
      sent.push(new URLSearchParams(String(init.body)));
      return answer();
    }) as typeof fetch,
    callbackUrl: 'https://console.example.com/oauth/upstream/callback',
    clientMetadataUrl: null,
    now: () => NOW,
  };
  return { d, store, sent };
}

const expiring = (seconds: number): UpstreamTokens => ({
  accessToken: 'old',
  refreshToken: 'r1',
  expiresAt: new Date(NOW.getTime() + seconds * 1000),
});

describe("a user's upstream token", () => {
  it('is used as it is while it has time left, and absent when the user never connected', async () => {
    expect(await upstreamAccessToken(server, 'u1', deps(expiring(600), () => new Response()).d)).toEqual({
      token: 'old',
      dpopKey: null,
    });
    expect(await upstreamAccessToken(server, 'u1', deps(null, () => new Response()).d)).toBeNull();
  });

  it('is refreshed near its expiry for the same resource, keeping the refresh token the server did not replace', async () => {
    const { d, store, sent } = deps(expiring(10), () =>
      Response.json({ access_token: 'new', expires_in: 3600 }),
    );
    expect(await upstreamAccessToken(server, 'u1', d)).toEqual({ token: 'new', dpopKey: null });
    expect(Object.fromEntries(sent[0] ?? [])).toMatchObject({
      grant_type: 'refresh_token',
      refresh_token: 'r1',
      client_id: 'sluice',
      resource: server.endpointUrl,
    });
    expect(store.get('s1:u1')).toMatchObject({ accessToken: 'new', refreshToken: 'r1' });
  });

  it('is forgotten when the refresh is refused: the user must connect again', async () => {
    const { d, store } = deps(expiring(10), () => Response.json({ error: 'invalid_grant' }, { status: 400 }));
    expect(await upstreamAccessToken(server, 'u1', d)).toBeNull();
    expect(store.has('s1:u1')).toBe(false);
  });
});
