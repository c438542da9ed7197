import { describe, expect, it } from 'vitest';
import type { McpServerTarget } from '../ports';
import { speaksOnlyTheRevision } from './generation-probe';

const target: McpServerTarget = {
  id: 's1',
  name: 'modern',
  endpointUrl: 'https://mcp.example.com/mcp',
  transportType: 'streamable_http',
  authType: 'none',
  authName: null,
  authSecret: null,
};

/** A server that answers every POST with `status` and `body`, and keeps what it was sent. */
function serverAnswering(status: number, body: unknown) {
  const seen: Request[] = [];
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    seen.push(new Request(input, init));
    return Response.json(body, { status });
  }) as typeof fetch;
  return { seen, rpc: { target, fetch: fetchImpl, timeoutMs: 1_000, capabilities: { sampling: {} } } };
}

const refusal = (code: number, data?: unknown) => ({
  jsonrpc: '2.0',
  id: 1,
  error: { code, message: 'no', data },
});

describe('asking a server whether it speaks only the stateless revision', () => {
  it('asks with an initialize in the revision’s form: its _meta and version header, no session-era params', async () => {
    const { seen, rpc } = serverAnswering(404, refusal(-32601));
    await speaksOnlyTheRevision(rpc);
    const request = seen[0] as Request;
    expect(request.headers.get('mcp-protocol-version')).toBe('2026-07-28');
    expect(request.headers.get('mcp-method')).toBe('initialize');
    const body = await request.json();
    expect(body).toMatchObject({ method: 'initialize' });
    expect(body.params).toEqual({
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': { sampling: {} },
        'io.modelcontextprotocol/clientInfo': expect.objectContaining({ name: 'sluice-gateway' }),
      },
    });
  });

  it('is told yes by -32022 listing only the revision', async () => {
    const { rpc } = serverAnswering(400, refusal(-32022, { supported: ['2026-07-28'] }));
    expect(await speaksOnlyTheRevision(rpc)).toBe(true);
  });

  it.each([
    ['a server of both generations (initialize is no RPC of the revision)', 404, refusal(-32601)],
    ['a session-era server (the params are not an initialize’s)', 400, refusal(-32602)],
    [
      '-32022 that lists a session-era version too',
      400,
      refusal(-32022, { supported: ['2025-11-25', '2026-07-28'] }),
    ],
    ['-32022 without the versions', 400, refusal(-32022)],
    ['an answer that is no JSON-RPC', 502, { oops: true }],
  ])('is told no by %s', async (_case, status, body) => {
    const { rpc } = serverAnswering(status, body);
    expect(await speaksOnlyTheRevision(rpc)).toBe(false);
  });

  it('is told no when the server cannot be reached (the session-era connect reports it)', async () => {
    const rpc = {
      target,
      fetch: (async () => {
        throw new TypeError('fetch failed');
      }) as typeof fetch,
      timeoutMs: 1_000,
      capabilities: {},
    };
    expect(await speaksOnlyTheRevision(rpc)).toBe(false);
  });
});
