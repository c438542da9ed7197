import { describe, expect, it } from 'vitest';
import { RpcFault } from '../gateway/jsonrpc';
import type { McpServerTarget } from '../ports';
import type { UpstreamClient, UpstreamOAuthDeps, UpstreamTokens } from './ports';
import { targetForUser, URL_ELICITATION_REQUIRED } from './user-target';

const target: McpServerTarget = {
  id: 's1',
  name: 'hub',
  endpointUrl: 'https://hub.example.com/mcp',
  transportType: 'streamable_http',
  authType: 'oauth',
  authName: null,
  authSecret: null,
};

function depsWith(tokens: UpstreamTokens | null, client: UpstreamClient | null = null) {
  const store = new Map<string, UpstreamTokens>(tokens ? [['s1:u1', tokens]] : []);
  const clients: UpstreamClient[] = client ? [client] : [];
  const deps = {
    store: {
      client: async () => clients.at(-1) ?? null,
      saveClient: async (saved: UpstreamClient) => void clients.push(saved),
      tokens: async (s: string, u: string) => store.get(`${s}:${u}`) ?? null,
      saveTokens: async () => {},
      deleteTokens: async (s: string, u: string) => store.delete(`${s}:${u}`),
    },
    now: () => new Date('2026-11-29T12:00:00Z'),
  } as unknown as UpstreamOAuthDeps;
  return { deps, store, clients };
}

describe("a server where each user signs in, for one user's call", () => {
  it('is called with the user’s own token', async () => {
    const { deps } = depsWith({ accessToken: 'at-1', refreshToken: null, expiresAt: null });
    const ready = await targetForUser(target, 'u1', deps, 'https://console.example.com');
    expect(ready).toMatchObject({ authType: 'bearer', authSecret: 'at-1' });
  });

  it('asks the user to connect first (a URL elicitation to the connections page) without one', async () => {
    const { deps } = depsWith(null);
    const fault = await targetForUser(target, 'u1', deps, 'https://console.example.com').catch((e) => e);
    expect(fault).toBeInstanceOf(RpcFault);
    expect(fault.code).toBe(URL_ELICITATION_REQUIRED);
    expect(fault.data.elicitations[0].url).toBe('https://console.example.com/mcp/connections');
  });

  it('forgets a token the server refused (401) and asks the user to connect again', async () => {
    const { deps, store } = depsWith({ accessToken: 'at-1', refreshToken: 'rt', expiresAt: null });
    const ready = await targetForUser(target, 'u1', deps, 'https://console.example.com');
    const fault = await ready.onUnauthorized?.({ status: 401, scope: null }).catch((e: unknown) => e);
    expect(fault).toBeInstanceOf(RpcFault);
    expect((fault as RpcFault).message).toMatch(/Connect your hub account first/);
    expect(store.has('s1:u1')).toBe(false);
  });

  it('asks for the scope a 403 challenge named, beside what it asked before (step-up)', async () => {
    const client: UpstreamClient = {
      serverId: 's1',
      issuer: 'https://as.example.com',
      authorizationEndpoint: 'https://as.example.com/authorize',
      tokenEndpoint: 'https://as.example.com/token',
      clientId: 'c1',
      clientSecret: null,
      resource: 'https://hub.example.com/mcp',
      scope: 'mcp:basic',
      tokenAuthMethod: 'none',
      issSupported: false,
    };
    const { deps, store, clients } = depsWith(
      { accessToken: 'at-1', refreshToken: null, expiresAt: null },
      client,
    );
    const ready = await targetForUser(target, 'u1', deps, 'https://console.example.com');
    const fault = await ready.onUnauthorized?.({ status: 403, scope: 'mcp:write' }).catch((e: unknown) => e);
    expect((fault as RpcFault).message).toMatch(/Connect your hub account again to grant mcp:write/);
    expect(clients.at(-1)?.scope).toBe('mcp:basic mcp:write');
    expect(store.has('s1:u1')).toBe(false);
  });
});
