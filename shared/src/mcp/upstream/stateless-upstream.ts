import { type ListMethod, withoutCacheHints } from '../cache-hints';
import { RpcFault } from '../gateway/jsonrpc';
import type {
  ClientChannel,
  McpResult,
  McpServerTarget,
  McpToolDescriptor,
  UpstreamList,
  UpstreamMcpConnector,
  UpstreamMcpSession,
} from '../ports';
import { UpstreamMcpUnavailable } from '../ports';
import {
  postRevisionRequest,
  REVISION,
  revisionMeta,
  speaksOnlyTheRevision,
  UNSUPPORTED_VERSION,
} from './generation-probe';
import { throughListCache, type UpstreamListCache } from './list-cache';
import { readRpcAnswer } from './rpc-answers';
import { withTraceHeaders } from './trace-headers';

/** How long an isolate trusts what it learned of a server's protocol generation. */
const GENERATION_TTL_MS = 5 * 60_000;
/** Rounds of input-required results one call may take before the gateway gives up. */
const MAX_INPUT_ROUNDS = 8;
/** What server/discover said of each server: whether it speaks the revision. */
const generations = new Map<string, { stateless: boolean; until: number }>();

/** A JSON-RPC error the upstream answered with: passed on with its code (upstream-answers.ts). */
export class UpstreamRpcError extends Error {
  override name = 'UpstreamRpcError';
  constructor(
    message: string,
    readonly code: number,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

interface Rpc {
  target: McpServerTarget;
  fetch: typeof fetch;
  timeoutMs: number;
  capabilities: ClientChannel['capabilities'];
}

/**
 * One stateless request; the answer's result, or the upstream's error thrown. A server that
 * refuses the request's version while listing the revision among those it supports is asked
 * once more (as SEP-2575 has a client retry with a version the server supports).
 */
async function request(rpc: Rpc, method: string, params: McpResult = {}): Promise<McpResult> {
  try {
    return await requestOnce(rpc, method, params);
  } catch (error) {
    if (!(error instanceof UpstreamRpcError) || error.code !== UNSUPPORTED_VERSION) throw error;
    const supported = (error.data as { supported?: unknown } | undefined)?.supported;
    if (!Array.isArray(supported) || !supported.includes(REVISION)) throw error;
    return requestOnce(rpc, method, params);
  }
}

async function requestOnce(rpc: Rpc, method: string, params: McpResult): Promise<McpResult> {
  const meta = revisionMeta(rpc.capabilities);
  const own = typeof params._meta === 'object' && params._meta !== null ? params._meta : {};
  const body = {
    jsonrpc: '2.0',
    id: crypto.randomUUID(),
    method,
    params: { ...params, _meta: { ...own, ...meta } },
  };
  let response: Response;
  try {
    response = await postRevisionRequest(rpc, body);
  } catch (error) {
    // What the target's onUnauthorized says (connect again) is the caller's to see as it is.
    if (error instanceof RpcFault) throw error;
    throw new UpstreamMcpUnavailable(`Cannot reach MCP server ${rpc.target.name}: ${String(error)}`, {
      cause: error,
    });
  }
  const answer = await readRpcAnswer(response).catch(() => null);
  if (!answer)
    throw new UpstreamMcpUnavailable(
      `MCP server ${rpc.target.name} answered HTTP ${response.status} without JSON-RPC`,
    );
  if (answer.error) {
    const { code, message, data } = answer.error as { code?: unknown; message?: unknown; data?: unknown };
    throw new UpstreamRpcError(String(message ?? 'error'), typeof code === 'number' ? code : -32603, data);
  }
  return (answer.result ?? {}) as McpResult;
}

/**
 * A request whose answer may be input-required (SEP-2322): what the server asks (sampling,
 * elicitation, roots) goes to the client over the session's channel, as a session-era server's
 * request would, and the request is sent again with the answers and the server's requestState.
 */
async function withInputRounds(
  rpc: Rpc,
  channel: ClientChannel | undefined,
  method: string,
  params: McpResult,
): Promise<McpResult> {
  let next = params;
  for (let round = 0; round < MAX_INPUT_ROUNDS; round++) {
    const result = await request(rpc, method, next);
    if (result.resultType !== 'input_required') return result;
    if (!channel) throw new UpstreamRpcError('The server needs input the client cannot give here', -32603);
    const asked = (result.inputRequests ?? {}) as Record<string, { method: string; params?: McpResult }>;
    const inputResponses: McpResult = {};
    for (const [key, ask] of Object.entries(asked))
      inputResponses[key] = await channel.request(ask.method, ask.params);
    next = {
      ...params,
      inputResponses,
      ...(result.requestState !== undefined && { requestState: result.requestState }),
    };
  }
  throw new UpstreamRpcError(`More than ${MAX_INPUT_ROUNDS} rounds of input for ${method}`, -32603);
}

/** Drops the revision's result fields a session-era client does not know. */
function sessionEra(result: McpResult): McpResult {
  const { resultType: _type, ...rest } = withoutCacheHints(result);
  return rest;
}

/** Where a session's list results are cached: for the user it acts for. */
interface ListCaching {
  cache: UpstreamListCache;
  userId: string;
}

function statelessSession(
  rpc: Rpc,
  channel: ClientChannel | undefined,
  lists: ListCaching | undefined,
): UpstreamMcpSession {
  const ask = async (method: string, params: McpResult = {}) =>
    sessionEra(await withInputRounds(rpc, channel, method, params));
  /** A list's first page, as kept or fetched, with its hints (what is left of its ttlMs). */
  const list = async (method: ListMethod, field: string): Promise<UpstreamList> => {
    const request = lists && {
      serverId: rpc.target.id,
      method,
      cursor: null,
      userId: lists.userId,
      credential: rpc.target.authSecret,
    };
    const { result, ttlMs, cacheScope } = await throughListCache(lists?.cache, request ?? null, () =>
      withInputRounds(rpc, channel, method, {}),
    );
    const items = result[field];
    return { items: (Array.isArray(items) ? items : []) as McpResult[], ttlMs, cacheScope };
  };
  const unsupported = async (method: string) => {
    throw new UpstreamRpcError(`${method} is not part of the stateless revision`, -32601);
  };
  return {
    sessionId: undefined,
    async listTools() {
      const { tools } = await ask('tools/list');
      return (Array.isArray(tools) ? tools : []) as McpToolDescriptor[];
    },
    callTool: (name, args, _progress, meta) =>
      ask('tools/call', meta ? { name, arguments: args, _meta: meta } : { name, arguments: args }),
    listResources: () => list('resources/list', 'resources'),
    readResource: (uri) => ask('resources/read', { uri }),
    listPrompts: () => list('prompts/list', 'prompts'),
    getPrompt: (name, args) => ask('prompts/get', { name, arguments: args }),
    listResourceTemplates: () => list('resources/templates/list', 'resourceTemplates'),
    complete: (params) => ask('completion/complete', params),
    setLoggingLevel: () => unsupported('logging/setLevel'),
    subscribeResource: () => unsupported('resources/subscribe'),
    unsubscribeResource: () => unsupported('resources/unsubscribe'),
    listen: async () => {},
    close: async () => {},
  };
}

/** What server/discover says of a server's generations (asked once per isolate and TTL). */
async function discoverGenerations(target: McpServerTarget, fetchImpl: typeof fetch, timeoutMs: number) {
  const known = generations.get(target.id);
  if (known && known.until > Date.now()) return known;
  const discovered = await request(
    { target, fetch: fetchImpl, timeoutMs, capabilities: {} },
    'server/discover',
  ).catch(() => null);
  const versions = discovered?.supportedVersions;
  const stateless = Array.isArray(versions) && versions.includes(REVISION);
  const entry = { stateless, until: Date.now() + GENERATION_TTL_MS };
  generations.set(target.id, entry);
  return entry;
}

/**
 * What this isolate already knows of a server's generation, without asking: true or false, or
 * undefined when it has not asked lately.
 */
export function knownToSpeakStateless(serverId: string): boolean | undefined {
  const known = generations.get(serverId);
  return known && known.until > Date.now() ? known.stateless : undefined;
}

/** Whether a server speaks the stateless revision: asked server/discover, never configured. */
export async function speaksStateless(target: McpServerTarget, fetchImpl: typeof fetch, timeoutMs: number) {
  return (await discoverGenerations(target, fetchImpl, timeoutMs)).stateless;
}

/**
 * Upstreams of either generation behind one connector. A server that speaks both generations
 * serves session-era clients with everything they know (progress, log messages, subscriptions,
 * server requests), so it gets the session client; such a server answers server/discover with
 * the revision alone, so discover cannot tell it from one that speaks only the revision. The
 * first request to a streamable-HTTP server asks in the revision's form
 * (generation-probe.ts): one that answers it speaks only the revision and gets stateless
 * requests from then on (no initialize; its input-required rounds relayed to the client). So
 * does one that refuses initialize and answers server/discover with the revision. Either
 * verdict is remembered per isolate for GENERATION_TTL_MS.
 */
export function generationAwareConnector(
  sessions: UpstreamMcpConnector,
  options: { fetch?: typeof fetch; listCache?: UpstreamListCache } = {},
): UpstreamMcpConnector {
  const fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
  const statelessOnly = new Map<string, number>();
  const sessionCapable = new Map<string, number>();
  type Connect = Parameters<UpstreamMcpConnector['connect']>[1];
  const rpcFor = (server: McpServerTarget, connect: Connect): Rpc => {
    const capabilities = connect.channel?.capabilities ?? connect.capabilities ?? {};
    const traced = withTraceHeaders(fetchImpl, connect.traceHeaders);
    return { target: server, fetch: traced, timeoutMs: connect.timeoutMs, capabilities };
  };
  const stateless = (server: McpServerTarget, connect: Connect) => {
    const lists =
      options.listCache && connect.userId ? { cache: options.listCache, userId: connect.userId } : undefined;
    return statelessSession(rpcFor(server, connect), connect.channel, lists);
  };
  /** Whether the server speaks only the revision, asked once per isolate and TTL. */
  const revisionOnly = async (server: McpServerTarget, connect: Connect) => {
    if ((sessionCapable.get(server.id) ?? 0) > Date.now()) return false;
    const only = await speaksOnlyTheRevision(rpcFor(server, connect));
    (only ? statelessOnly : sessionCapable).set(server.id, Date.now() + GENERATION_TTL_MS);
    return only;
  };
  return {
    async connect(server, connect) {
      if ((statelessOnly.get(server.id) ?? 0) > Date.now()) return stateless(server, connect);
      if (server.transportType === 'streamable_http' && (await revisionOnly(server, connect)))
        return stateless(server, connect);
      try {
        return await sessions.connect(server, connect);
      } catch (error) {
        const streamable = server.transportType === 'streamable_http';
        if (!streamable || !(await speaksStateless(server, fetchImpl, connect.timeoutMs))) throw error;
        statelessOnly.set(server.id, Date.now() + GENERATION_TTL_MS);
        return stateless(server, connect);
      }
    },
  };
}
