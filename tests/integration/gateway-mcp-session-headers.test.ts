// The upstream connector's session-era requests carry the 2026-07-28 standard headers
// (Mcp-Method on every POST, initialize and notifications too; Mcp-Name on tools/call) and
// nothing that would make them stateless ones (no _meta, no MCP-Protocol-Version on initialize),
// so a server of both generations keeps the session. The upstream is a session-era server of the
// official SDK that records what each POST carried; the client is the official SDK through /mcp.
import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenLocally } from '../fakes/mcp-servers';
import { type ProxyHarness, proxyHarness } from '../helpers/proxy-harness';

/** What one POST to the upstream carried. */
interface SeenPost {
  method: string;
  mcpMethod?: string;
  mcpName?: string;
  protocolVersion?: string;
  sessionId?: string;
  meta: unknown;
}

function sessionServer(): Server {
  const server = new Server({ name: 'sessions', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: 'my-tool', description: 'Says hi', inputSchema: { type: 'object' as const } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: 'text', text: 'hi' }] }));
  return server;
}

/** A new session's transport, kept under its id once initialize gives it one. */
async function openSession(
  sessions: Map<string, StreamableHTTPServerTransport>,
): Promise<StreamableHTTPServerTransport> {
  const opened: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id: string) => {
      sessions.set(id, opened);
    },
  });
  await sessionServer().connect(opened);
  return opened;
}

async function startRecordingSessionServer() {
  const seen: SeenPost[] = [];
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const header = (value: string | string[] | undefined) => (typeof value === 'string' ? value : undefined);
  const http: HttpServer = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
    const sessionId = header(req.headers['mcp-session-id']);
    if (req.method === 'POST' && typeof body?.method === 'string')
      seen.push({
        method: body.method,
        mcpMethod: header(req.headers['mcp-method']),
        mcpName: header(req.headers['mcp-name']),
        protocolVersion: header(req.headers['mcp-protocol-version']),
        sessionId,
        meta: body.params?._meta,
      });
    const transport = (sessionId && sessions.get(sessionId)) || (await openSession(sessions));
    await transport.handleRequest(req, res, body);
  });
  return {
    url: await listenLocally(http, '/mcp'),
    seen,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}

let h: ProxyHarness;
let upstream: Awaited<ReturnType<typeof startRecordingSessionServer>>;

beforeAll(async () => {
  h = await proxyHarness('gateway_mcp_session_headers');
  upstream = await startRecordingSessionServer();
  const created = await h.admin('POST', '/api/mcp/servers', { name: 'sessions', endpoint_url: upstream.url });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const discovered = await h.admin('POST', `/api/mcp/servers/${created.body.id}/discover`);
  expect(discovered.status, JSON.stringify(discovered.body)).toBe(200);
}, 60_000);
afterAll(async () => {
  await upstream?.close();
  await h?.close();
});

describe('session-era upstream requests carry the standard headers', () => {
  it('initialize, notifications/initialized, tools/list and tools/call each name their method; the call its tool; the session is kept', async () => {
    const transport = new StreamableHTTPClientTransport(new URL('http://gateway.test/mcp'), {
      fetch: ((input: string | URL | Request, init?: RequestInit) =>
        h.gateway.app.request(input instanceof Request ? input : String(input), init)) as typeof fetch,
      requestInit: { headers: { authorization: `Bearer ${h.apiKey}` } },
    });
    const client = new Client({ name: 'sluice-session-headers-test', version: '1.0.0' });
    await client.connect(transport);
    const before = upstream.seen.length;
    const result = await client.callTool({ name: 'sessions__my-tool', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'hi' }]);
    await client.close();

    for (const post of upstream.seen) expect(post.mcpMethod, post.method).toBe(post.method);
    const initializes = upstream.seen.filter((post) => post.method === 'initialize');
    const probes = initializes.filter((post) => post.meta !== undefined);
    const sessions = initializes.filter((post) => post.meta === undefined);
    // Each connector (the console's discovery, the gateway) first asks in the revision's form,
    // which a server of both generations refuses (generation-probe.ts)…
    expect(probes.length).toBeGreaterThan(0);
    for (const probe of probes)
      expect(probe).toMatchObject({
        protocolVersion: '2026-07-28',
        meta: expect.objectContaining({ 'io.modelcontextprotocol/protocolVersion': '2026-07-28' }),
      });
    // …then initializes a session with nothing of the revision: the server keeps it a session.
    expect(sessions.length).toBeGreaterThan(0);
    for (const session of sessions) expect(session.protocolVersion).toBeUndefined();
    expect(upstream.seen.some((post) => post.method === 'notifications/initialized')).toBe(true);
    const call = upstream.seen.slice(before).find((post) => post.method === 'tools/call');
    expect(call).toMatchObject({ mcpMethod: 'tools/call', mcpName: 'my-tool', meta: undefined });
    expect(call?.sessionId).toEqual(expect.any(String));
  });
});
