import type { Principal } from '@sluice/shared/auth/gateway';
import type { Span } from '@sluice/shared/telemetry';
import { principalAttributes } from '@sluice/shared/telemetry';
import type { Context } from 'hono';
import { backgroundFor, liveKeepAlive } from '../background';
import type { GatewayEnv } from '../types';

type Json = Record<string, unknown>;

const record = (value: unknown): Json | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * The trace context a request carries: the HTTP `traceparent` header, else the one MCP puts in
 * the request's `params._meta` (SEP-414), for clients whose transport sets no headers.
 */
function contextHeaders(headers: Headers, params: Json | null): Headers {
  if (headers.has('traceparent')) return headers;
  const meta = record(params?._meta);
  const traceparent = text(meta?.traceparent);
  if (!traceparent) return headers;
  const carried = new Headers({ traceparent });
  const tracestate = text(meta?.tracestate);
  if (tracestate) carried.set('tracestate', tracestate);
  return carried;
}

/**
 * The server span of one MCP request, named and described as the MCP semantic conventions say
 * (`{mcp.method.name} {target}`; mcp.method.name, gen_ai.tool.name, mcp.session.id, …).
 * Started once the body is read, since the method and the trace context may be in it.
 */
export function startMcpSpan(c: Context<GatewayEnv>, body: unknown): Span {
  const message = record(body);
  const method = text(message?.method);
  const params = record(message?.params);
  const target = method === 'tools/call' || method === 'prompts/get' ? text(params?.name) : text(params?.uri);
  const name = method ? (target ? `${method} ${target}` : method) : `${c.req.method} ${c.req.path}`;
  const id = message?.id;
  const principal = c.get('principal') as Principal | undefined;
  const { tracer, refreshTracing } = c.get('deps');
  if (refreshTracing) refreshTracing(() => backgroundFor(c));
  return tracer.start(name, 'server', {
    headers: contextHeaders(c.req.raw.headers, params),
    keepAlive: liveKeepAlive(c),
    attributes: {
      'mcp.method.name': method,
      'gen_ai.tool.name': method === 'tools/call' ? target : undefined,
      'gen_ai.operation.name': method === 'tools/call' ? 'execute_tool' : undefined,
      'gen_ai.prompt.name': method === 'prompts/get' ? target : undefined,
      'mcp.resource.uri': method === 'resources/read' ? target : undefined,
      'jsonrpc.request.id': typeof id === 'string' || typeof id === 'number' ? String(id) : undefined,
      'mcp.session.id': c.req.header('mcp-session-id'),
      'mcp.protocol.version': c.req.header('mcp-protocol-version'),
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
      'sluice.mcp.server': c.req.param('server'),
      ...(principal ? principalAttributes(principal) : {}),
    },
  });
}
