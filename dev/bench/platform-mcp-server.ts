/**
 * The platform bench's MCP server: streamable HTTP, stateless (a server and transport per
 * request, as tests/fakes/mcp-servers.ts builds its guarded server), answering tools/list with
 * `count` tools in one page and tools/call with an echo. Runs in the bench's process on a
 * loopback port; the bench registers it in the console and discovers its tools.
 */
import { createServer, type Server as HttpServer } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

export interface BenchMcpServer {
  url: string;
  close(): Promise<void>;
}

/** The name of the tool at `index`, as the server lists it (the gateway adds `<server>__`). */
export const benchToolName = (index: number) => `tool_${String(index).padStart(4, '0')}`;

/** Tools shaped like a real server's: a sentence of description and a small object schema. */
function benchTools(count: number) {
  return Array.from({ length: count }, (_, index) => ({
    name: benchToolName(index),
    description: `Bench tool number ${index}: looks up a record by its id and answers its fields as text.`,
    inputSchema: {
      type: 'object' as const,
      properties: {
        id: { type: 'string', description: 'The record id' },
        fields: { type: 'array', items: { type: 'string' }, description: 'Fields to answer' },
      },
      required: ['id'],
    },
  }));
}

export async function startBenchMcpServer(count: number): Promise<BenchMcpServer> {
  const tools = benchTools(count);
  const mcpServer = () => {
    const server = new Server({ name: 'bench', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => ({
      content: [
        { type: 'text', text: `${request.params.name}: ${String(request.params.arguments?.id ?? '')}` },
      ],
    }));
    return server;
  };
  const http: HttpServer = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const server = mcpServer();
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
