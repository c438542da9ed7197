/**
 * Real MCP servers for the tests: the npm package @modelcontextprotocol/server-everything
 * (streamable HTTP or legacy SSE, its own process), and a small server of ours that demands a
 * credential (bearer, header or query) and pages its tools/list two at a time.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server as HttpServer, type IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { freePort } from '../../self-host/process/ports';

export interface RunningMcpServer {
  url: string;
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);

/** server-everything on a free port: `streamableHttp` (…/mcp) or `sse` (…/sse). */
export async function startEverything(transport: 'streamableHttp' | 'sse'): Promise<RunningMcpServer> {
  const port = await freePort();
  const entry = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
  const child: ChildProcess = spawn(process.execPath, [entry, transport], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (d: Buffer) => {
    output += d.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const path = transport === 'sse' ? '/sse' : '/mcp';
  for (let i = 0; i < 100; i++) {
    if (/listening|running/i.test(output)) break;
    if (child.exitCode !== null) throw new Error(`server-everything exited:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export type GuardedAuth =
  | { type: 'bearer'; secret: string }
  | { type: 'header'; name: string; secret: string }
  | { type: 'query'; name: string; secret: string };

/** The credential of a request, as the server checks it. */
function authorized(req: IncomingMessage, auth: GuardedAuth): boolean {
  if (auth.type === 'bearer') return req.headers.authorization === `Bearer ${auth.secret}`;
  if (auth.type === 'header') return req.headers[auth.name.toLowerCase()] === auth.secret;
  return new URL(req.url ?? '/', 'http://x').searchParams.get(auth.name) === auth.secret;
}

export const GUARDED_TOOLS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];

function guardedServer(): Server {
  const server = new Server({ name: 'guarded', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const start = Number(request.params?.cursor ?? 0);
    const page = GUARDED_TOOLS.slice(start, start + 2).map((name) => ({
      name,
      description: `The ${name} tool`,
      inputSchema: { type: 'object' as const, properties: { text: { type: 'string' } } },
    }));
    const next = start + 2 < GUARDED_TOOLS.length ? String(start + 2) : undefined;
    return { tools: page, ...(next && { nextCursor: next }) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => ({
    content: [
      { type: 'text', text: `${request.params.name}: ${String(request.params.arguments?.text ?? '')}` },
    ],
  }));
  return server;
}

/** Listens on a free loopback port; the URL of `path` there. */
export async function listenLocally(http: HttpServer, path: string): Promise<string> {
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return `http://127.0.0.1:${port}${path}`;
}

/** A stateless streamable-HTTP MCP server that answers 401 without the right credential. */
/** What the guarded server received per JSON-RPC request: the trace context it carried. */
export interface GuardedCall {
  method: string;
  traceparent: string | undefined;
  meta: Record<string, unknown> | undefined;
}

export async function startGuardedServer(
  auth: GuardedAuth,
): Promise<RunningMcpServer & { refused: number; calls: GuardedCall[] }> {
  const state = { refused: 0 };
  const calls: GuardedCall[] = [];
  const http: HttpServer = createServer(async (req, res) => {
    if (!authorized(req, auth)) {
      state.refused++;
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
    if (body && typeof body.method === 'string') {
      const traceparent = req.headers.traceparent;
      calls.push({
        method: body.method,
        traceparent: typeof traceparent === 'string' ? traceparent : undefined,
        meta: body.params?._meta,
      });
    }
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const server = guardedServer();
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  return {
    url: await listenLocally(http, '/mcp'),
    get refused() {
      return state.refused;
    },
    calls,
    close: () => new Promise((resolve) => http.close(() => resolve())),
  };
}
