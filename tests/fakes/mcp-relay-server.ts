/**
 * An MCP server (the official SDK's McpServer, stateful streamable HTTP) whose tools ask their
 * client something in the middle of the call, as real servers do: a sampling request, an
 * elicitation, the roots, and three log messages — all related to the call, so they travel on
 * the call's own event stream.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CreateMessageResultSchema,
  ElicitResultSchema,
  ListRootsResultSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { listenLocally, type RunningMcpServer } from './mcp-servers';

export const RELAY_TOOLS = ['ask-model', 'ask-user', 'list-roots', 'log-three', 'bump'];
export const COUNTER_URI = 'relay://counter';
/** A second resource `bump` announces: its update shows how far a stream has come. */
export const MARKER_URI = 'relay://marker';

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

function relayServer(): McpServer {
  const server = new McpServer(
    { name: 'relay', version: '1.0.0' },
    { capabilities: { logging: {}, resources: { subscribe: true } } },
  );
  subscribableCounter(server);
  server.registerTool('ask-model', { inputSchema: { prompt: z.string() } }, async ({ prompt }, extra) => {
    const request = {
      method: 'sampling/createMessage' as const,
      params: {
        messages: [{ role: 'user' as const, content: { type: 'text' as const, text: prompt } }],
        maxTokens: 50,
      },
    };
    const result = await extra.sendRequest(request, CreateMessageResultSchema);
    const content = result.content as { type: string; text?: string };
    return text(`model said: ${content.text ?? ''}`);
  });
  server.registerTool('ask-user', { inputSchema: {} }, async (_args, extra) => {
    const request = {
      method: 'elicitation/create' as const,
      params: {
        message: 'What is your name?',
        requestedSchema: {
          type: 'object' as const,
          properties: { name: { type: 'string' as const } },
          required: ['name'],
        },
      },
    };
    const result = await extra.sendRequest(request, ElicitResultSchema);
    return text(`user ${result.action}: ${JSON.stringify(result.content ?? {})}`);
  });
  server.registerTool('list-roots', { inputSchema: {} }, async (_args, extra) => {
    const result = await extra.sendRequest({ method: 'roots/list' }, ListRootsResultSchema);
    return text(`roots: ${result.roots.map((root) => root.uri).join(', ')}`);
  });
  server.registerTool('log-three', { inputSchema: {} }, async (_args, extra) => {
    for (const step of [1, 2, 3]) {
      await extra.sendNotification({
        method: 'notifications/message',
        params: { level: 'info', logger: 'relay', data: `step ${step}` },
      });
    }
    return text('logged three');
  });
  return server;
}

/**
 * Resources the client may subscribe to, and a tool that changes them: an update notification
 * answers no request, so it travels on the session's own GET stream.
 */
function subscribableCounter(server: McpServer): void {
  let count = 0;
  const subscribed = new Set<string>();
  server.registerResource('counter', COUNTER_URI, { mimeType: 'text/plain' }, async () => ({
    contents: [{ uri: COUNTER_URI, text: String(count) }],
  }));
  server.registerResource('marker', MARKER_URI, { mimeType: 'text/plain' }, async () => ({
    contents: [{ uri: MARKER_URI, text: String(count) }],
  }));
  server.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    subscribed.add(request.params.uri);
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
  server.registerTool('bump', { inputSchema: {} }, async () => {
    count++;
    for (const uri of [COUNTER_URI, MARKER_URI]) {
      if (subscribed.has(uri)) await server.server.sendResourceUpdated({ uri });
    }
    return text(`count ${count}`);
  });
}

/** The relay server on a free port, one McpServer per session as the SDK's examples keep them. */
export async function startRelayServer(): Promise<RunningMcpServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const http: HttpServer = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
    const sessionId = req.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (!transport) {
      if (typeof sessionId === 'string') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Session not found"}');
        return;
      }
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          transports.set(id, created);
        },
      });
      await relayServer().connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res, body);
  });
  return {
    url: await listenLocally(http, '/mcp'),
    close: async () => {
      await Promise.all([...transports.values()].map((t) => t.close().catch(() => {})));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
