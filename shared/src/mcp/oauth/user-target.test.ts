import { describe, expect, it } from 'vitest';
import { RpcFault } from '../gateway/jsonrpc';
import type { McpServerTarget } from '../ports';
import type { UpstreamOAuthDeps, UpstreamTokens } from './ports';
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

function depsWith(tokens: UpstreamTokens | null) {
  const store = new Map<string, UpstreamTokens>(tokens ? [['s1:u1', tokens]] : []);
  const deps = {
    store: {
      client: async () => null,
      saveClient: async () => {},
      tokens: async (s: string, u: string) => store.get(`${s}:${u}`) ?? null,
      saveTokens: async () => {},
      deleteTokens: async (s: string, u: string) => store.delete(`${s}:${u}`),
    },
    now: () => new Date('2026-11-29T12:00:00Z'),
  } as unknown as UpstreamOAuthDeps;
  return { deps, store };
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
    const fault = await ready.onUnauthorized?.().catch((e: unknown) => e);
    expect(fault).toBeInstanceOf(RpcFault);
    expect((fault as RpcFault).message).toMatch(/Connect your hub account first/);
    expect(store.has('s1:u1')).toBe(false);
  });
});
