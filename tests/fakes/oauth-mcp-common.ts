/**
 * What the fake OAuth-protected MCP servers share: reading a body, answering JSON, refusing a
 * token as RFC 6750 and RFC 9728 say, and the one tool that tells whose token a call carried.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** The request's bearer token ('' when it carries none). */
export const bearerOf = (req: IncomingMessage): string =>
  (req.headers.authorization ?? '').replace(/^Bearer /, '');

/** 401 invalid_token, naming where the resource's metadata is (and any `more` challenge params). */
export function refuseToken(res: ServerResponse, origin: string, more = ''): void {
  const metadata = `${origin}/.well-known/oauth-protected-resource/mcp`;
  json(
    res,
    401,
    { error: 'invalid_token' },
    { 'www-authenticate': `Bearer resource_metadata="${metadata}"${more}` },
  );
}

export interface Whoami {
  /** The server's name in its initialize answer. */
  name: string;
  /** The whoami tool's description. */
  description: string;
  /** What the tool answers. */
  answer: string;
}

/** One stateless MCP exchange with a server whose one tool, whoami, answers `who.answer`. */
export async function serveWhoami(
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
  who: Whoami,
): Promise<void> {
  const server = new Server({ name: who.name, version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: 'whoami', description: who.description, inputSchema: { type: 'object' as const } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async () => ({
    content: [{ type: 'text', text: who.answer }],
  }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}
