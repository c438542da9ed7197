import { decodeJwt, type JWTPayload } from 'jose';
import { describe, expect, it } from 'vitest';
import { accessTokenHash, newDpopKey } from '../oauth/dpop';
import type { McpServerTarget } from '../ports';
import { authenticatedFetch } from './auth';

const server = (over: Partial<McpServerTarget>): McpServerTarget => ({
  id: 'id',
  name: 'n',
  endpointUrl: 'https://mcp.example/mcp?x=1',
  transportType: 'streamable_http',
  authType: 'none',
  authName: null,
  authSecret: null,
  ...over,
});

/** What reached the network: a recording fetch stands in for it. */
async function sent(target: McpServerTarget, url: string) {
  let seen: Request | undefined;
  const record = (async (input: Request) => {
    seen = input;
    return new Response('ok');
  }) as unknown as typeof fetch;
  await authenticatedFetch(target, record)(url, {
    method: 'POST',
    body: '{"a":1}',
    headers: { 'content-type': 'application/json' },
  });
  if (!seen) throw new Error('nothing sent');
  return { url: seen.url, headers: Object.fromEntries(seen.headers), body: await seen.text() };
}

describe('upstream auth injection', () => {
  it('adds a bearer token, a named header or a query parameter, keeping the request', async () => {
    expect((await sent(server({}), 'https://mcp.example/mcp')).headers).toEqual({
      'content-type': 'application/json',
    });
    const bearer = await sent(server({ authType: 'bearer', authSecret: 's3' }), 'https://mcp.example/mcp');
    expect(bearer).toEqual({
      url: 'https://mcp.example/mcp',
      headers: { authorization: 'Bearer s3', 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    const header = await sent(
      server({ authType: 'header', authName: 'X-Api-Key', authSecret: 's3' }),
      'https://mcp.example/mcp',
    );
    expect(header.headers['x-api-key']).toBe('s3');
    const query = await sent(
      server({ authType: 'query', authName: 'token', authSecret: 'a b' }),
      'https://mcp.example/message?sessionId=1',
    );
    expect(query.url).toBe('https://mcp.example/message?sessionId=1&token=a+b');
  });

  it('sends nothing to another origin', async () => {
    const other = await sent(server({ authType: 'bearer', authSecret: 's3' }), 'https://elsewhere.example/x');
    expect(other.headers.authorization).toBeUndefined();
  });

  it('turns a 401, or a 403 that says the scope is short, into what the target says', async () => {
    const refusals: unknown[] = [];
    const target = server({
      authType: 'bearer',
      authSecret: 't',
      onUnauthorized: async (refusal) => {
        refusals.push(refusal);
        throw new Error('connect again');
      },
    });
    const answering = (status: number, challenge?: string) =>
      authenticatedFetch(
        target,
        (async () =>
          new Response('no', {
            status,
            headers: challenge ? { 'www-authenticate': challenge } : {},
          })) as unknown as typeof fetch,
      )('https://mcp.example/mcp', { method: 'POST' });
    await expect(answering(401, 'Bearer resource_metadata="x"')).rejects.toThrow('connect again');
    await expect(
      answering(403, 'Bearer scope="mcp:write", resource_metadata="x", error="insufficient_scope"'),
    ).rejects.toThrow('connect again');
    // A 403 for another reason is the server's answer, passed on.
    expect((await answering(403, 'Bearer error="invalid_token"')).status).toBe(403);
    expect(refusals).toEqual([
      { status: 401, scope: null },
      { status: 403, scope: 'mcp:write' },
    ]);
  });
});

describe('upstream auth with a DPoP-bound token', () => {
  it('sends the DPoP scheme with a proof of each request, once more with the nonce a 401 asks for', async () => {
    const key = await newDpopKey('ES256');
    const received: Array<{ authorization: string | null; proof: JWTPayload; body: string }> = [];
    const answers = [
      new Response('no', {
        status: 401,
        headers: { 'www-authenticate': 'DPoP error="use_dpop_nonce"', 'dpop-nonce': 'n-1' },
      }),
      new Response('ok'),
      new Response('no', { status: 401, headers: { 'www-authenticate': 'DPoP error="invalid_token"' } }),
    ];
    const upstream = (async (request: Request) => {
      received.push({
        authorization: request.headers.get('authorization'),
        proof: decodeJwt(request.headers.get('dpop') ?? ''),
        body: await request.text(),
      });
      return answers.shift();
    }) as unknown as typeof fetch;
    const refusals: unknown[] = [];
    const target = server({
      endpointUrl: 'https://dpop-unit.example/mcp',
      authType: 'bearer',
      authSecret: 'tok',
      dpopKey: key,
      onUnauthorized: async (refusal) => {
        refusals.push(refusal);
        throw new Error('connect again');
      },
    });
    const post = () =>
      authenticatedFetch(target, upstream)('https://dpop-unit.example/mcp?s=1', {
        method: 'POST',
        body: '{"a":1}',
      });
    expect((await post()).status).toBe(200);
    expect(received.map((r) => [r.authorization, r.proof.htm, r.proof.htu, r.proof.nonce, r.body])).toEqual([
      ['DPoP tok', 'POST', 'https://dpop-unit.example/mcp', undefined, '{"a":1}'],
      ['DPoP tok', 'POST', 'https://dpop-unit.example/mcp', 'n-1', '{"a":1}'],
    ]);
    expect(received[0]?.proof.ath).toBe(await accessTokenHash('tok'));
    expect(received[0]?.proof.jti).not.toBe(received[1]?.proof.jti);
    // Refused for another reason: no retry, what the target says (connect again).
    await expect(post()).rejects.toThrow('connect again');
    expect(received).toHaveLength(3);
    expect(received[2]?.proof.nonce).toBe('n-1');
    expect(refusals).toEqual([{ status: 401, scope: null }]);
  });
});
