import { type McpResult, RELAYED_REQUESTS } from '../../ports';
import type { McpPost } from '../handle-mcp';
import {
  type JsonRpcId,
  type JsonRpcRequest,
  McpRpcError,
  RPC,
  RpcFault,
  rpcFaultBody,
  rpcResult,
} from '../jsonrpc';
import { callMethod, type MethodDeps } from '../methods';
import { META, STATELESS_VERSIONS, type StatelessEnvelope } from './envelope';
import { callWithInputRounds } from './input-rounds';
import { statelessCall } from './method-call';
import { forwardStateless, OPEN_STREAM, serverSpeaksStateless } from './passthrough';
import { statelessSession } from './session';

export const GATEWAY_SERVER_INFO = { name: 'sluice', version: '0.1.0' };

/** Session-era methods the stateless revision removed: 404 and "method not found". */
export const REMOVED = new Set([
  'initialize',
  'ping',
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
]);
/** Results that carry the revision's caching hints (SEP-2549). */
const CACHEABLE = new Set([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);

/**
 * A stateless request (2026-07-28) on /mcp or /mcp/{server}: answered by whichever isolate
 * gets it. server/discover comes from the gateway; everything else goes through the same
 * methods as a session's (access rules, guardrails, the call log), on the caller's stand-in
 * upstream sessions (session.ts). Results carry `resultType` and, for lists and reads, caching
 * hints: private, as what a caller sees depends on its role.
 */
export async function handleStatelessPost(
  post: McpPost,
  envelope: StatelessEnvelope,
  message: JsonRpcRequest,
  deps: MethodDeps,
): Promise<Response> {
  if (message.id === undefined) return new Response(null, { status: 202 });
  const id = message.id;
  if (REMOVED.has(message.method)) throw methodNotFound(message.method, id);
  const server = post.scope === null ? undefined : (await deps.catalog()).serverByName.get(post.scope);
  if (server && (await serverSpeaksStateless(server, post.principal.userId, deps)))
    return forwardStateless(post, { ...message, id }, server, deps);
  if (message.method === 'server/discover') return json(rpcResult(id, stamp(message.method, discover())));
  if (message.method === 'subscriptions/listen') return listen(id, post);
  const session = await statelessSession(post.principal, post.scope, deps);
  const declared = relayable(envelope.clientCapabilities);
  try {
    if (message.method === 'tools/call' && Object.keys(declared).length > 0) {
      const result = await callWithInputRounds(post, { ...message, id }, session, deps, declared);
      return json(rpcResult(id, stamp(message.method, result)));
    }
    const result = await callMethod(statelessCall(post, { ...message, id }, session), deps);
    return json(rpcResult(id, stamp(message.method, result)));
  } catch (error) {
    if (error instanceof RpcFault && error.code === RPC.methodNotFound)
      throw methodNotFound(message.method, id);
    if (error instanceof RpcFault) return json(rpcFaultBody(id, error));
    throw error;
  }
}

/** What the client declared of the requests a server may need answered (sampling, elicitation, roots). */
function relayable(capabilities: Record<string, unknown>): Record<string, McpResult> {
  const declared: Record<string, McpResult> = {};
  for (const name of Object.keys(RELAYED_REQUESTS)) {
    const value = capabilities[name];
    if (typeof value === 'object' && value !== null) declared[name] = value as McpResult;
  }
  return declared;
}

function methodNotFound(method: string, id: JsonRpcId): McpRpcError {
  return new McpRpcError(404, RPC.methodNotFound, `Method not found: ${method}`, id);
}

function discover(): McpResult {
  return {
    supportedVersions: [...STATELESS_VERSIONS],
    capabilities: { tools: { listChanged: false }, resources: {}, prompts: {}, completions: {} },
    _meta: { [META.serverInfo]: GATEWAY_SERVER_INFO },
  };
}

function stamp(method: string, result: McpResult): McpResult {
  const stamped: McpResult = { resultType: 'complete', ...result };
  if (CACHEABLE.has(method)) {
    stamped.ttlMs ??= 0;
    stamped.cacheScope ??= 'private';
  }
  const meta = (typeof result._meta === 'object' && result._meta !== null ? result._meta : {}) as McpResult;
  stamped._meta = { [META.serverInfo]: GATEWAY_SERVER_INFO, ...meta };
  return stamped;
}

const json = (body: unknown): Response =>
  new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });

/**
 * subscriptions/listen: the gateway's lists do not announce changes (listChanged: false), so the
 * stream acknowledges with none of the requested notifications and stays open, idle, until the
 * client leaves.
 */
function listen(id: JsonRpcId, post: McpPost): Response {
  const ack = {
    jsonrpc: '2.0',
    method: 'notifications/subscriptions/acknowledged',
    params: { _meta: { 'io.modelcontextprotocol/subscriptionId': String(id) }, notifications: {} },
  };
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`${JSON.stringify(ack)}\n`));
      post.signal?.addEventListener('abort', () => controller.close(), { once: true });
    },
  });
  return new Response(body, { headers: { 'content-type': 'application/json', ...OPEN_STREAM } });
}
