import { describe, expect, it } from 'vitest';
import type { UpstreamClient } from './ports';
import { authenticateTokenRequest } from './register';

const client: UpstreamClient = {
  serverId: 's',
  issuer: 'https://as.example.com',
  authorizationEndpoint: 'https://as.example.com/authorize',
  tokenEndpoint: 'https://as.example.com/token',
  clientId: 'sluice at hub',
  clientSecret: 'p@ss w+rd',
  resource: 'https://hub.example.com/mcp',
  scope: null,
  tokenAuthMethod: 'client_secret_basic',
  issSupported: true,
};

describe("a per-user server's token request", () => {
  it('sends a Basic secret form-urlencoded (a space is +, a plus %2B), not in the body', () => {
    const body = new URLSearchParams({ grant_type: 'authorization_code' });
    const headers = authenticateTokenRequest(client, body);
    expect(atob(String(headers.authorization).replace(/^Basic /, ''))).toBe('sluice+at+hub:p%40ss+w%2Brd');
    expect(body.has('client_id')).toBe(false);
    expect(body.has('client_secret')).toBe(false);
  });

  it('puts the id (and a post secret) in the form otherwise', () => {
    const body = new URLSearchParams();
    expect(authenticateTokenRequest({ ...client, tokenAuthMethod: 'client_secret_post' }, body)).toEqual({});
    expect(Object.fromEntries(body)).toEqual({ client_id: 'sluice at hub', client_secret: 'p@ss w+rd' });
    const publicBody = new URLSearchParams();
    authenticateTokenRequest({ ...client, clientSecret: null, tokenAuthMethod: 'none' }, publicBody);
    expect(Object.fromEntries(publicBody)).toEqual({ client_id: 'sluice at hub' });
  });
});
