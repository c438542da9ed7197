import { describe, expect, it } from 'vitest';
import type { McpServerTarget } from '../ports';
import { authenticatedFetch } from './auth';

/** A server that takes only `valid`: what it was sent, in order. */
function server(valid: () => string) {
  const seen: Array<{ authorization: string | null; body: string }> = [];
  const fetchImpl = (async (request: Request) => {
    const authorization = request.headers.get('authorization');
    seen.push({ authorization, body: await request.text() });
    return authorization === `Bearer ${valid()}` ? new Response('ok') : new Response('no', { status: 401 });
  }) as unknown as typeof fetch;
  return { seen, fetchImpl };
}

const target = (renewSecret: McpServerTarget['renewSecret']): McpServerTarget => ({
  id: 's1',
  name: 'reports',
  endpointUrl: 'https://mcp.example.com/mcp',
  transportType: 'streamable_http',
  authType: 'bearer',
  authName: null,
  authSecret: 'old',
  renewSecret,
});

const post = { method: 'POST', body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' };

describe('a token Sluice got for itself, refused by the server', () => {
  it('is renewed once and the request sent again with the same body; later requests carry the new one', async () => {
    const upstream = server(() => 'new');
    const renewals: string[] = [];
    const send = authenticatedFetch(
      target(async (refused) => {
        renewals.push(refused);
        return 'new';
      }),
      upstream.fetchImpl,
    );
    expect((await send('https://mcp.example.com/mcp', post)).status).toBe(200);
    expect((await send('https://mcp.example.com/mcp', post)).status).toBe(200);
    expect(renewals).toEqual(['old']);
    expect(upstream.seen).toEqual([
      { authorization: 'Bearer old', body: post.body },
      { authorization: 'Bearer new', body: post.body },
      { authorization: 'Bearer new', body: post.body },
    ]);
  });

  it('is not renewed a second time in a request: a second 401 is the answer', async () => {
    const upstream = server(() => 'never');
    let renewals = 0;
    const send = authenticatedFetch(
      target(async () => `new-${++renewals}`),
      upstream.fetchImpl,
    );
    expect((await send('https://mcp.example.com/mcp', post)).status).toBe(401);
    expect(renewals).toBe(1);
    expect(upstream.seen).toHaveLength(2);
  });

  it('passes a failed renewal on to the caller', async () => {
    const upstream = server(() => 'new');
    const refusal = new Error('its authorization server answered invalid_client');
    const send = authenticatedFetch(
      target(async () => {
        throw refusal;
      }),
      upstream.fetchImpl,
    );
    await expect(send('https://mcp.example.com/mcp', post)).rejects.toBe(refusal);
    expect(upstream.seen).toHaveLength(1);
  });
});
