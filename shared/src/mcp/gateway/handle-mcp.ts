import type { Principal } from '../../auth/gateway/principal';
import { limitSubject } from '../../limits/definitions';
import type { Span } from '../../telemetry/span';
import type { Background } from '../../util/background';
import { withoutCacheHints } from '../cache-hints';
import { type ClientChannel, type McpResult, RELAYED_REQUESTS, type RelayedCapability } from '../ports';
import { type McpCatalog, scopedCatalog } from './catalog';
import { createClientChannel, RELAY_ID_PREFIX } from './client-channel';
import { createResumableStream, sseEvent } from './event-stream';
import {
  type JsonRpcId,
  type JsonRpcRequest,
  jsonRpcRequestSchema,
  jsonRpcResponseSchema,
  McpRpcError,
  RPC,
  RpcFault,
  rpcErrorBody,
  rpcFaultBody,
  rpcResult,
} from './jsonrpc';
import { callMethod, type MethodCall, type MethodDeps } from './methods';
import { checkStandardHeaders } from './standard-headers';
import { statelessEnvelope } from './stateless/envelope';
import { GATEWAY_SERVER_INFO, handleStatelessPost } from './stateless/handle-stateless';
import type { SessionContext } from './upstream-calls';

/** Protocol versions /mcp speaks, newest first; an unknown request gets the newest. */
export const MCP_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];
export const SESSION_HEADER = 'mcp-session-id';
const SERVER_INFO = GATEWAY_SERVER_INFO;
/** The code MCP servers commonly answer an unknown session with. */
const SESSION_NOT_FOUND = -32001;

export interface McpPost {
  principal: Principal;
  /** For work after the response (the call log). */
  waitUntil: Background;
  sessionId: string | null;
  /** The MCP-Protocol-Version header: a stateless (2026-07-28) request names it. */
  protocolVersion: string | null;
  accept: string;
  body: unknown;
  /** The server of /mcp/{server}; null on the aggregate /mcp. */
  scope: string | null;
  /** Aborted when the client leaves (ends a stateless subscriptions/listen stream). */
  signal?: AbortSignal;
  /** The client's MCP-* headers (MCP-Protocol-Version, Mcp-Method, Mcp-Name, …; not the session's): forwarded to a stateless upstream as sent. */
  forwardHeaders?: Record<string, string>;
  /** The request's server span (its upstream calls are children). */
  span?: Span;
}

const json = (body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), {
    status: 200,
    headers: { 'content-type': 'application/json', ...headers },
  });

/** JSON unless the client accepts only an event stream. */
function answer(accept: string, body: unknown, headers: Record<string, string> = {}): Response {
  if (accept.includes('text/event-stream') && !accept.includes('application/json')) {
    return new Response(sseEvent(body), { headers: { 'content-type': 'text/event-stream', ...headers } });
  }
  return json(body, headers);
}

/**
 * /mcp/{server} sees one server's catalog under its own names; 404 for a server not active. The
 * scoped catalog follows the whole one (a long-lived stream hears of its changes); a server
 * switched off or deleted meanwhile offers no tools.
 */
export async function endpointDeps(deps: MethodDeps, scope: string | null): Promise<MethodDeps> {
  if (scope === null) return deps;
  let whole = await deps.catalog();
  const first = scopedCatalog(whole, scope);
  if (!first) throw new McpRpcError(404, RPC.invalidRequest, `No active MCP server named ${scope}`, null);
  let scoped: McpCatalog = first;
  return {
    ...deps,
    catalog: async () => {
      const current = await deps.catalog();
      if (current !== whole) {
        whole = current;
        scoped = scopedCatalog(current, scope) ?? { ...scoped, tools: [], toolByName: new Map() };
      }
      return scoped;
    },
  };
}

function idOf(body: unknown): JsonRpcId | null {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

async function initialize(message: JsonRpcRequest, post: McpPost, deps: MethodDeps): Promise<Response> {
  if (message.id === undefined)
    throw new McpRpcError(400, RPC.invalidRequest, 'initialize must be a request', null);
  const requested = message.params?.protocolVersion;
  const protocolVersion =
    typeof requested === 'string' && MCP_PROTOCOL_VERSIONS.includes(requested)
      ? requested
      : MCP_PROTOCOL_VERSIONS[0]!;
  const keyId = post.principal.kind === 'api_key' ? post.principal.keyId : null;
  const sessionId = await deps.sessions.create({
    userId: post.principal.userId,
    keyId,
    protocolVersion,
    upstream: {},
    clientCapabilities: relayableCapabilities(message.params?.capabilities),
    ...(post.scope !== null && { scope: post.scope }),
  });
  const result = {
    protocolVersion,
    capabilities: {
      // Told on the session's GET stream (listen-stream.ts) when the catalog changes.
      tools: { listChanged: true },
      resources: { subscribe: true },
      prompts: {},
      completions: {},
      logging: {},
    },
    serverInfo: SERVER_INFO,
  };
  return answer(post.accept, rpcResult(message.id, result), { [SESSION_HEADER]: sessionId });
}

/** Of what the client declared, what the gateway relays to it (RELAYED_REQUESTS). */
function relayableCapabilities(declared: unknown): ClientChannel['capabilities'] {
  const capabilities: ClientChannel['capabilities'] = {};
  if (typeof declared !== 'object' || declared === null) return capabilities;
  for (const name of Object.keys(RELAYED_REQUESTS) as RelayedCapability[]) {
    const value = (declared as Record<string, unknown>)[name];
    if (typeof value === 'object' && value !== null) capabilities[name] = value as McpResult;
  }
  return capabilities;
}

/**
 * The caller's own open session: 400 without the header, 404 when unknown, closed, expired or
 * terminated. Deleting a server terminates the sessions that used it: it is dropped from each
 * session on its next request, and a session left with none of the servers it used is closed.
 */
export async function requireSession(
  post: Pick<McpPost, 'principal' | 'sessionId' | 'scope'>,
  deps: MethodDeps,
  id: JsonRpcId | null,
) {
  if (!post.sessionId)
    throw new McpRpcError(400, RPC.invalidRequest, 'Mcp-Session-Id header is required', id);
  const record = await deps.sessions.open(post.sessionId);
  const notFound = new McpRpcError(404, SESSION_NOT_FOUND, 'Session not found', id);
  // A session belongs to the endpoint that opened it (/mcp or one /mcp/{server}).
  if (!record || record.userId !== post.principal.userId || (record.scope ?? null) !== post.scope)
    throw notFound;
  const used = Object.keys(record.upstream);
  if (used.length > 0) {
    const { registeredIds } = await deps.catalog();
    const gone = used.filter((serverId) => !registeredIds.has(serverId));
    if (gone.length === used.length) {
      await deps.sessions.close(post.sessionId);
      throw notFound;
    }
    if (gone.length > 0) {
      for (const serverId of gone) delete record.upstream[serverId];
      await deps.sessions.save(post.sessionId, record);
    }
  }
  return { id: post.sessionId, record } satisfies SessionContext;
}

/**
 * A tools/call is answered as an event stream when the client takes one and there may be
 * something to say before the result: progress it asked for, requests it declared it answers
 * (sampling, elicitation, roots), or log messages it asked for (logging/setLevel). Otherwise as
 * one JSON body, whose HTTP status can still say 502 when the upstream cannot be reached.
 */
function streamsToolCall(message: JsonRpcRequest, session: SessionContext, accept: string): boolean {
  if (message.method !== 'tools/call' || !accept.includes('text/event-stream')) return false;
  const wantsProgress =
    (message.params?._meta as { progressToken?: unknown } | undefined)?.progressToken !== undefined;
  const { clientCapabilities, logLevel } = session.record;
  return wantsProgress || Object.keys(clientCapabilities ?? {}).length > 0 || logLevel !== undefined;
}

/**
 * A request answered as an event stream (event-stream.ts: primed, resumable): a tools/call's
 * progress, the upstream's requests and log messages, then the answer. The call runs to its end
 * even if the client leaves (the answer is kept for its resumption). When the upstream ends its
 * own stream mid-call and resumes it (SEP-1699 polling), the client's stream is ended likewise:
 * the client resumes with GET and Last-Event-ID, as it would with the server itself.
 */
function streamed(
  message: JsonRpcRequest & { id: JsonRpcId },
  session: SessionContext,
  post: McpPost,
  deps: MethodDeps,
): Response {
  const token = (message.params?._meta as { progressToken?: unknown } | undefined)?.progressToken;
  const stream = createResumableStream(deps.sessions, session.id);
  const onProgress =
    token === undefined
      ? undefined
      : (progress: McpResult) =>
          stream.send({
            jsonrpc: '2.0',
            method: 'notifications/progress',
            params: { progressToken: token, ...progress },
          });
  const channel = createClientChannel({
    capabilities: session.record.clientCapabilities ?? {},
    // Nothing is written after the answer (a late log message of the upstream).
    send: (value) => stream.send(value),
    answers: deps.sessions,
    sessionId: session.id,
    timeoutMs: deps.timeoutMs,
    onUpstreamResumed: () => stream.end(),
  });
  const work = callForSession({ ...call(message, session, post), onProgress, channel }, deps).then(
    (result) => stream.send(rpcResult(message.id, result), true),
    (error: unknown) => stream.send(errorBody(message.id, error), true),
  );
  post.waitUntil(work.then(() => stream.kept()));
  return stream.response;
}

/** A method's result for a session-era client: the stateless revision's caching hints are not its. */
async function callForSession(methodCall: MethodCall, deps: MethodDeps): Promise<McpResult> {
  return withoutCacheHints(await callMethod(methodCall, deps));
}

function errorBody(id: JsonRpcId, error: unknown): Record<string, unknown> {
  if (error instanceof RpcFault) return rpcFaultBody(id, error);
  if (error instanceof McpRpcError) return rpcErrorBody(error);
  return rpcFaultBody(id, new RpcFault(RPC.internalError, 'Internal error'));
}

/** The client lists event streams first in Accept: it prefers every answer as one. */
function prefersEventStream(accept: string): boolean {
  return accept.split(',')[0]?.trim().startsWith('text/event-stream') ?? false;
}

function call(message: JsonRpcRequest & { id: JsonRpcId }, session: SessionContext, post: McpPost) {
  const { id, method } = message;
  return {
    id,
    method,
    params: message.params ?? {},
    session,
    role: post.principal.role,
    subject: limitSubject(post.principal),
    waitUntil: post.waitUntil,
    span: post.span,
  };
}

/**
 * POST /mcp (streamable HTTP, JSON-RPC 2.0): initialize opens a session (Mcp-Session-Id);
 * everything else needs it. Notifications and client responses are accepted (202). Protocol
 * errors are JSON-RPC error objects; HTTP-level ones (400, 404, 502) are thrown as McpRpcError
 * for the gateway's onError, which renders them as JSON-RPC errors too.
 */
export async function handleMcpPost(post: McpPost, aggregate: MethodDeps): Promise<Response> {
  const deps = await endpointDeps(aggregate, post.scope);
  if (Array.isArray(post.body)) {
    throw new McpRpcError(400, RPC.invalidRequest, 'JSON-RPC batches are not supported', null);
  }
  const parsed = jsonRpcRequestSchema.safeParse(post.body);
  if (!parsed.success) {
    if (jsonRpcResponseSchema.safeParse(post.body).success) return acceptAnswer(post, deps);
    const where = parsed.error.issues.map((i) => i.path.join('.') || 'body').join(', ');
    throw new McpRpcError(400, RPC.invalidRequest, `Invalid JSON-RPC request (${where})`, idOf(post.body));
  }
  const message = parsed.data;
  checkStandardHeaders(post.forwardHeaders, message);
  // A stateless (2026-07-28) request needs no session; initialize keeps the session lifecycle.
  const envelope = statelessEnvelope(post, post.body, message.id ?? null);
  if (envelope) return handleStatelessPost(post, envelope, message, deps);
  if (message.method === 'initialize') return initialize(message, post, deps);
  const session = await requireSession(post, deps, message.id ?? null);
  if (message.id === undefined) return new Response(null, { status: 202 });
  const request = { ...message, id: message.id };
  if (streamsToolCall(message, session, post.accept) || prefersEventStream(post.accept)) {
    return streamed(request, session, post, deps);
  }
  try {
    const result = await callForSession(call(request, session, post), deps);
    return answer(post.accept, rpcResult(request.id, result));
  } catch (error) {
    if (error instanceof RpcFault) return answer(post.accept, rpcFaultBody(request.id, error));
    throw error;
  }
}

/**
 * A client's answer (202): to a request the gateway relayed, kept for the request waiting on
 * it; anything else has nobody waiting and is dropped.
 */
async function acceptAnswer(post: McpPost, deps: MethodDeps): Promise<Response> {
  const answer = post.body as { id: unknown; result?: unknown; error?: Record<string, unknown> };
  const session = await requireSession(post, deps, null);
  if (typeof answer.id === 'string' && answer.id.startsWith(RELAY_ID_PREFIX)) {
    const kept = answer.error ? { error: answer.error } : { result: answer.result };
    await deps.sessions.putAnswer(session.id, answer.id, kept);
  }
  return new Response(null, { status: 202 });
}

/** DELETE /mcp: 204 and the session is closed; 400 without the header, 404 when unknown. */
export async function handleMcpDelete(
  post: Pick<McpPost, 'principal' | 'sessionId' | 'scope'>,
  aggregate: MethodDeps,
): Promise<Response> {
  const deps = await endpointDeps(aggregate, post.scope);
  const session = await requireSession(post, deps, null);
  await deps.sessions.close(session.id);
  return new Response(null, { status: 204 });
}
