import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { withDeadline } from '../../util/deadline';
import {
  type ClientChannel,
  type McpResult,
  type McpServerTarget,
  type McpToolDescriptor,
  type UpstreamMcpConnector,
  type UpstreamMcpSession,
  UpstreamMcpUnavailable,
} from '../ports';
import { authenticatedFetch } from './auth';
import { relayThrough } from './client-relay';
import { withStandardHeaders } from './standard-headers';
import { withTraceHeaders } from './trace-headers';

const passThroughValidator: jsonSchemaValidator = {
  getValidator: () => (input: unknown) => ({ valid: true, data: input, errorMessage: undefined }) as never,
};

/** How Sluice introduces itself to upstream servers. */
const CLIENT_INFO = { name: 'sluice-gateway', version: '0.1.0' };
/** tools/list pages followed at most, so a server that loops its cursor cannot hang discovery. */
const MAX_PAGES = 100;

function transportFor(server: McpServerTarget, fetchImpl: typeof fetch, resumeSessionId?: string): Transport {
  const url = new URL(server.endpointUrl);
  const authed = authenticatedFetch(server, fetchImpl);
  if (server.transportType === 'sse') return new SSEClientTransport(url, { fetch: authed });
  // The revision's standard headers on every POST, initialize too: a proxy or server that routes
  // on them need not read the body, and a session-era server ignores them.
  const headed = withStandardHeaders(authed, server.paramHeaders);
  return new StreamableHTTPClientTransport(url, { fetch: headed, sessionId: resumeSessionId });
}

/**
 * The SDK's transport resumes a stream the server ended mid-call with a GET carrying
 * Last-Event-ID; the gateway's client stream mirrors it (handle-mcp.ts), so it is told.
 */
function watchResumptions(fetchImpl: typeof fetch, channel: ClientChannel | undefined): typeof fetch {
  const told = channel?.onUpstreamResumed;
  if (!told) return fetchImpl;
  return ((input: string | URL | Request, init?: RequestInit) => {
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    if (method === 'GET' && headers.has('last-event-id')) told();
    return fetchImpl(input, init);
  }) as typeof fetch;
}

function unavailable(server: McpServerTarget, error: unknown): UpstreamMcpUnavailable {
  const reason = error instanceof Error ? error.message : String(error);
  return new UpstreamMcpUnavailable(
    `Cannot reach MCP server ${server.name} at ${server.endpointUrl}: ${reason}`,
    {
      cause: error,
    },
  );
}

function sessionOf(client: Client, transport: Transport, timeoutMs: number): UpstreamMcpSession {
  const options = { timeout: timeoutMs };
  return {
    get sessionId() {
      return transport.sessionId;
    },
    async listTools() {
      const tools: McpToolDescriptor[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const result = await client.listTools(cursor ? { cursor } : undefined, options);
        for (const tool of result.tools) {
          tools.push({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema });
        }
        cursor = result.nextCursor;
        if (!cursor) break;
      }
      return tools;
    },
    async callTool(name, args, onProgress, meta) {
      const progress = onProgress && {
        onprogress: (p: McpResult) => onProgress(p),
        resetTimeoutOnProgress: true,
      };
      const params = meta ? { name, arguments: args, _meta: meta } : { name, arguments: args };
      return (await client.callTool(params, undefined, {
        ...options,
        ...progress,
      })) as McpResult;
    },
    async listResources() {
      return { items: (await client.listResources(undefined, options)).resources as McpResult[] };
    },
    async readResource(uri) {
      return (await client.readResource({ uri }, options)) as McpResult;
    },
    async listPrompts() {
      return { items: (await client.listPrompts(undefined, options)).prompts as McpResult[] };
    },
    async getPrompt(name, args) {
      return (await client.getPrompt({ name, arguments: args }, options)) as McpResult;
    },
    async listResourceTemplates() {
      const { resourceTemplates } = await client.listResourceTemplates(undefined, options);
      return { items: resourceTemplates as McpResult[] };
    },
    async complete(params) {
      return (await client.complete(params as never, options)) as McpResult;
    },
    async setLoggingLevel(level) {
      await client.setLoggingLevel(level as never, options);
    },
    async subscribeResource(uri) {
      await client.subscribeResource({ uri }, options);
    },
    async unsubscribeResource(uri) {
      await client.unsubscribeResource({ uri }, options);
    },
    async listen() {
      // A GET without Last-Event-ID: the session's standalone stream (the SSE transport has one).
      if (transport instanceof StreamableHTTPClientTransport) await transport.resumeStream('');
    },
    close: () => client.close(),
  };
}

/**
 * Upstream MCP sessions through the official SDK client: streamable HTTP or legacy SSE, with
 * the server's credential on every request. Connecting initializes, unless resuming a
 * streamable-HTTP session another isolate opened (the SDK skips initialize when the transport
 * already has a session id). Failing to connect is UpstreamMcpUnavailable (the caller's 502).
 */
export function createSdkConnector(
  options: { fetch?: typeof fetch; validateToolOutput?: boolean } = {},
): UpstreamMcpConnector {
  const fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
  // The gateway passes results through as the upstream sent them; validating them against the
  // tool's output schema is the client's business (and Ajv's code generation is barred in workerd).
  const jsonSchemaValidator = options.validateToolOutput === false ? passThroughValidator : undefined;
  return {
    async connect(server, { timeoutMs, resumeSessionId, capabilities, channel, traceHeaders }) {
      const traced = withTraceHeaders(fetchImpl, traceHeaders);
      const transport = transportFor(server, watchResumptions(traced, channel), resumeSessionId);
      // The client's own capabilities, so the upstream offers it what it would offer it directly.
      const declared = channel?.capabilities ?? capabilities ?? {};
      const client = new Client(CLIENT_INFO, { capabilities: declared, jsonSchemaValidator });
      if (channel) relayThrough(client, channel);
      try {
        await withDeadline(
          client.connect(transport, { timeout: timeoutMs }),
          timeoutMs,
          `MCP server ${server.name}`,
        );
      } catch (error) {
        await client.close().catch(() => {});
        throw unavailable(server, error);
      }
      return sessionOf(client, transport, timeoutMs);
    },
  };
}
