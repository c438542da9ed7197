import type { McpServerRow } from '../../../db/repos/mcp-repo';
import { redactJson } from '../../../guardrails/redact-policy';
import { blockingToolRule, TOOL_BLOCKED_CODE } from '../../../guardrails/tool-policy';
import { limitSubject } from '../../../limits/definitions';
import { isListMethod } from '../../cache-hints';
import { blockedCallMessage } from '../../refusals';
import { authenticatedFetch } from '../../upstream/auth';
import { readRpcAnswer } from '../../upstream/rpc-answers';
import { speaksStateless } from '../../upstream/stateless-upstream';
import { traceMeta } from '../../upstream/trace-headers';
import { mayUseTool } from '../access';
import { publicName } from '../catalog';
import type { McpPost } from '../handle-mcp';
import { type JsonRpcRequest, RPC, RpcFault, rpcFaultBody } from '../jsonrpc';
import type { MethodDeps } from '../methods';
import { toolLimitRefusal } from '../tool-limits';
import { forwardList } from './passthrough-lists';

/**
 * Whether a registered server speaks the stateless revision itself (upstream/stateless-upstream.ts:
 * asked server/discover, once per isolate and 5 minutes, never configured). A server that does
 * is reached on /mcp/{server} by forwarding the client's request as it is — the revision's
 * results (input-required rounds, request state, caching hints, listen streams) pass through
 * unchanged; one that does not is bridged over a session (handle-stateless.ts).
 */
export async function serverSpeaksStateless(
  server: McpServerRow,
  userId: string,
  deps: MethodDeps,
): Promise<boolean> {
  if (server.transportType !== 'streamable_http') return false;
  return speaksStateless(await deps.targetOf(server, userId), deps.fetch ?? fetch, deps.timeoutMs);
}

interface Outgoing {
  headers: Record<string, string>;
  body: unknown;
  accept: string;
  signal?: AbortSignal;
}

async function send(
  server: McpServerRow,
  userId: string,
  deps: MethodDeps,
  outgoing: Outgoing,
): Promise<Response> {
  const target = await deps.targetOf(server, userId);
  const upstreamFetch = authenticatedFetch(target, deps.fetch ?? fetch);
  return upstreamFetch(target.endpointUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: outgoing.accept, ...outgoing.headers },
    body: JSON.stringify(outgoing.body),
    signal: outgoing.signal ?? AbortSignal.timeout(deps.timeoutMs),
  });
}

/**
 * The client's stateless request, forwarded to a server that speaks the revision. The
 * gateway's rules still apply: lists go through its list cache (passthrough-lists.ts), and
 * tools/list shows only the tools the caller's role may use;
 * tools/call is refused (as a JSON-RPC error, never reaching the server) when the role may not
 * use the tool, an inspect_tools rule matches or a tool limit is used up, has its arguments redacted as
 * security.redact says, and is written to the MCP call log.
 */
export async function forwardStateless(
  post: McpPost,
  message: JsonRpcRequest & { id: string | number },
  server: McpServerRow,
  deps: MethodDeps,
): Promise<Response> {
  let body: unknown = post.body;
  let logCall: ((error: string | null) => void) | null = null;
  if (message.method === 'tools/call') {
    const checked = await checkToolCall(post, message, server, deps);
    if (checked instanceof Response) return checked;
    body = checked.body;
    logCall = checked.log;
  }
  // The gateway's span is the upstream call's parent: its context replaces the client's.
  const trace = post.span?.context ? post.span.headers() : undefined;
  const forward = () =>
    send(server, post.principal.userId, deps, {
      headers: { ...(post.forwardHeaders ?? {}), ...trace },
      body: withTraceMeta(body, trace),
      accept: post.accept || 'application/json, text/event-stream',
      ...(message.method === 'subscriptions/listen' && post.signal ? { signal: post.signal } : {}),
    });
  if (isListMethod(message.method)) {
    const relay = (upstream: Response) =>
      new Response(upstream.body, { status: upstream.status, headers: passedHeaders(upstream) });
    return forwardList(post, message, message.method, server, deps, forward, relay);
  }
  const upstream = await forward();
  if (logCall && upstream.body) {
    const [toClient, toLog] = upstream.body.tee();
    const log = logCall;
    post.waitUntil(
      readRpcAnswer(new Response(toLog, { headers: upstream.headers }))
        .then((answer) => log(answerError(answer)))
        .catch((error: unknown) => log(String(error))),
    );
    return new Response(toClient, { status: upstream.status, headers: passedHeaders(upstream) });
  }
  const headers = passedHeaders(upstream);
  if (message.method === 'subscriptions/listen')
    for (const [name, value] of Object.entries(OPEN_STREAM)) headers.set(name, value);
  return new Response(upstream.body, { status: upstream.status, headers });
}

/**
 * A listen stream is JSON lines that stay open: compressing it (as Cloudflare and Miniflare do
 * with application/json for a client that accepts gzip) would hold every line back. no-transform
 * keeps Cloudflare from it, an explicit identity coding Miniflare.
 */
export const OPEN_STREAM = { 'cache-control': 'no-cache, no-transform', 'content-encoding': 'identity' };

function passedHeaders(upstream: Response): Headers {
  const headers = new Headers();
  for (const name of ['content-type', 'cache-control']) {
    const value = upstream.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  return headers;
}

/** What the call log records of an answer: null for a result without isError. */
function answerError(answer: { result?: unknown; error?: unknown } | null): string | null {
  if (!answer) return 'no answer from the upstream';
  if (answer.error) return String((answer.error as { message?: unknown }).message ?? 'error');
  const result = answer.result as { isError?: unknown; resultType?: unknown } | undefined;
  return result?.isError === true ? 'tool reported an error' : null;
}

async function checkToolCall(
  post: McpPost,
  message: JsonRpcRequest & { id: string | number },
  server: McpServerRow,
  deps: MethodDeps,
): Promise<Response | { body: unknown; log: (error: string | null) => void }> {
  const params = message.params ?? {};
  const name = typeof params.name === 'string' ? params.name : '';
  const args = typeof params.arguments === 'object' && params.arguments !== null ? params.arguments : {};
  const accessName = publicName(server.name, name);
  const [access, policy, redaction] = await Promise.all([
    deps.toolAccess(),
    deps.toolPolicy(),
    deps.redaction(),
  ]);
  const started = Date.now();
  const log = (error: string | null) =>
    void deps.logCall(
      {
        id: crypto.randomUUID(),
        createdAt: new Date(started),
        userId: post.principal.userId,
        apiKeyId: post.principal.kind === 'api_key' ? post.principal.keyId : null,
        serverId: server.id,
        serverName: server.name,
        toolName: name,
        status: error === null ? 'success' : 'error',
        durationMs: Date.now() - started,
        error: error === null ? null : redaction?.logs ? redaction.logs.redact(error) : error,
      },
      post.waitUntil,
    );
  const refuse = (fault: RpcFault) =>
    new Response(JSON.stringify(rpcFaultBody(message.id, fault)), {
      headers: { 'content-type': 'application/json' },
    });
  if (!mayUseTool(post.principal.role, accessName, access)) {
    return refuse(new RpcFault(RPC.invalidParams, `Tool not allowed: ${name}`));
  }
  const blockedBy = blockingToolRule(policy, accessName, args);
  if (blockedBy !== null) {
    const text = blockedCallMessage(blockedBy);
    log(text);
    deps.onToolBlocked(blockedBy);
    return refuse(new RpcFault(TOOL_BLOCKED_CODE, text));
  }
  const limited = await toolLimitRefusal(deps.toolLimits, limitSubject(post.principal), {
    server: server.name,
    tool: name,
  });
  if (limited) {
    log(limited.message);
    return refuse(limited);
  }
  const redactor = redaction?.request;
  if (!redactor) return { body: post.body, log };
  const redacted = { ...params, arguments: redactJson(args, redactor) };
  return { body: { ...(post.body as object), params: redacted }, log };
}

/** The request with the trace context in `params._meta` as well (SEP-414), the rest as sent. */
function withTraceMeta(body: unknown, trace: Record<string, string> | undefined): unknown {
  const meta = traceMeta(trace);
  if (!meta || typeof body !== 'object' || body === null) return body;
  const message = body as { params?: Record<string, unknown> };
  const params = message.params ?? {};
  const own = typeof params._meta === 'object' && params._meta !== null ? params._meta : {};
  return { ...message, params: { ...params, _meta: { ...own, ...meta } } };
}
