import type { McpServerRow } from '../../db/repos/mcp-repo';
import type { UserRole } from '../../db/schema/users';
import { type RedactPolicy, redactJson } from '../../guardrails/redact-policy';
import { blockingToolRule, TOOL_BLOCKED_CODE, type ToolPolicy } from '../../guardrails/tool-policy';
import type { LimitSubject } from '../../limits/definitions';
import { NO_SPAN, type Span } from '../../telemetry/span';
import type { Background } from '../../util/background';
import { composedHints } from '../cache-hints';
import type { ClientChannel, McpLogRecord, McpResult } from '../ports';
import { blockedCallMessage } from '../refusals';
import type { UpstreamListCache } from '../upstream/list-cache';
import { traceMeta } from '../upstream/trace-headers';
import { type McpToolAccess, mayUseTool } from './access';
import type { CatalogTool, McpCatalog } from './catalog';
import { type JsonRpcId, RPC, RpcFault } from './jsonrpc';
import { complete, listResourceTemplates, resourceOwner, setLogLevel } from './server-methods';
import { subscribe, unsubscribe } from './subscriptions';
import { type ToolLimitsPort, toolLimitRefusal } from './tool-limits';
import { callSearchTool, SEARCH_TOOL_NAME, type ToolSearchMode, toolsToList } from './tool-search';
import { failure, fromEveryServer } from './upstream-answers';
import { type SessionContext, type UpstreamCallDeps, withUpstream } from './upstream-calls';

export interface MethodDeps extends UpstreamCallDeps {
  catalog(): Promise<McpCatalog>;
  /** Appends a tools/call to the MCP call log; resolves once stored (hand it to waitUntil). */
  /**
   * Queues the call's log row; a batch it opens is handed to `keepAlive` (waitUntil), so no
   * request waits for a batch another request keeps. Never rejects.
   */
  logCall(record: McpLogRecord, keepAlive: Background): Promise<void>;
  /** security.mcp_tool_access, as the settings cache has it. */
  toolAccess(): Promise<McpToolAccess>;
  /** general.mcp_tool_search and mcp_pinned_tools: the search tool on /mcp; absent: off. */
  toolSearch?(): Promise<{ mode: ToolSearchMode; pinned: string[] }>;
  /** security.inspect_tools as rules; null when none is set (guardrails/tool-policy.ts). */
  toolPolicy(): Promise<ToolPolicy | null>;
  /** Counted in /metrics (sluice_guardrail_blocks_total). */
  onToolBlocked(rule: string): void;
  /** Per-tool rate limits and call budgets (limits/tool-gate.ts); absent: none. */
  toolLimits?: ToolLimitsPort;
  /** security.redact by place; null when none is set (guardrails/redact-policy.ts). */
  redaction(): Promise<RedactPolicy | null>;
  warn(message: string, fields?: Record<string, unknown>): void;
  /** Raw HTTP to upstream servers (a stateless request forwarded as it is); default fetch. */
  fetch?: typeof fetch;
  /** Upstream list results kept as their caching hints allow; absent: none kept. */
  listCache?: UpstreamListCache;
}

export interface MethodCall {
  id: JsonRpcId;
  method: string;
  params: Record<string, unknown>;
  session: SessionContext;
  /** The caller's role (an API key's owner's): decides which tools it sees and may call. */
  role: UserRole;
  /** Whose tool limits a tools/call runs under: the calling key's and its owner's. */
  subject: LimitSubject;
  /** Keeps the isolate alive for work after the response (the call log). */
  waitUntil: Background;
  /** Progress notifications of a tools/call, when the client asked for them. */
  onProgress?: (params: McpResult) => void;
  /** The client, while a streamed tools/call is open (client-channel.ts). */
  channel?: ClientChannel;
  /** The request's span: an upstream tools/call is a client span under it. */
  span?: Span;
}

async function callTool(call: MethodCall, deps: MethodDeps): Promise<McpResult> {
  const name = call.params.name;
  if (typeof name !== 'string') throw new RpcFault(RPC.invalidParams, 'params.name is required');
  const args = call.params.arguments ?? {};
  if (typeof args !== 'object' || Array.isArray(args)) {
    throw new RpcFault(RPC.invalidParams, 'params.arguments must be an object');
  }
  const catalog = await deps.catalog();
  if (name === SEARCH_TOOL_NAME && catalog.aggregate && (await searchMode(deps)).mode !== 'off') {
    return callSearchTool(await visibleTools(call, deps), args as Record<string, unknown>);
  }
  const entry = catalog.toolByName.get(name);
  if (!entry) throw new RpcFault(RPC.invalidParams, `Unknown tool: ${name}`);
  if (!mayUseTool(call.role, entry.accessName, await deps.toolAccess())) {
    throw new RpcFault(RPC.invalidParams, `Tool not allowed: ${name}`);
  }
  const [policy, redaction] = await Promise.all([deps.toolPolicy(), deps.redaction()]);
  const blockedBy = blockingToolRule(policy, entry.accessName, args);
  const started = Date.now();
  const forLog = (text: string) => (redaction?.logs ? redaction.logs.redact(text) : text);
  const log = (error: string | null) =>
    void deps.logCall(
      {
        id: crypto.randomUUID(),
        createdAt: new Date(started),
        userId: call.session.record.userId,
        apiKeyId: call.session.record.keyId,
        serverId: entry.server.id,
        serverName: entry.server.name,
        toolName: entry.tool.name,
        status: error === null ? 'success' : 'error',
        durationMs: Date.now() - started,
        error: error === null ? null : forLog(error),
      },
      call.waitUntil,
    );
  if (blockedBy !== null) {
    const message = blockedCallMessage(blockedBy);
    log(message);
    deps.onToolBlocked(blockedBy);
    throw new RpcFault(TOOL_BLOCKED_CODE, message);
  }
  // Checked and counted last, so a call refused for anything else counts on no limit.
  const limited = await toolLimitRefusal(deps.toolLimits, call.subject, {
    server: entry.server.name,
    tool: entry.tool.name,
  });
  if (limited) {
    log(limited.message);
    throw limited;
  }
  const span = toolCallSpan(call.span ?? NO_SPAN, entry.server, entry.tool.name);
  const trace = span.context ? span.headers() : undefined;
  try {
    const result = await withUpstream(
      deps,
      call.session,
      entry.server,
      (upstream) =>
        upstream.callTool(entry.tool.name, outgoing(args, redaction), call.onProgress, traceMeta(trace)),
      call.channel,
      trace,
    );
    const toolError = result.isError === true ? toolErrorText(result) : null;
    log(toolError);
    if (toolError !== null) span.set('error.type', 'tool_error').fail(toolError);
    return redaction?.response ? (redactJson(result, redaction.response) as McpResult) : result;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log(message);
    span.set('error.type', error instanceof Error ? error.name : 'error').fail(message);
    failure(call.id, error);
  } finally {
    span.end();
  }
}

/** The arguments as they leave for the MCP server (security.redact, request). */
function outgoing(args: object, redaction: RedactPolicy | null): Record<string, unknown> {
  const redactor = redaction?.request;
  return (redactor ? redactJson(args, redactor) : args) as Record<string, unknown>;
}

/** What a tool said when it reported an error (isError), for the log. */
function toolErrorText(result: McpResult): string {
  const content = Array.isArray(result.content) ? result.content : [];
  const text = content.map((c) => (c as { text?: unknown }).text).filter((t) => typeof t === 'string');
  return text.join(' ').slice(0, 1000) || 'tool reported an error';
}

async function readResource(call: MethodCall, deps: MethodDeps): Promise<McpResult> {
  const uri = call.params.uri;
  if (typeof uri !== 'string') throw new RpcFault(RPC.invalidParams, 'params.uri is required');
  const server = await resourceOwner(call, deps, uri);
  try {
    return await withUpstream(deps, call.session, server, (u) => u.readResource(uri));
  } catch (error) {
    failure(call.id, error);
  }
}

/** `<server>__<prompt>`: the owning server asked for its own prompt, arguments as given. */
async function getPrompt(call: MethodCall, deps: MethodDeps): Promise<McpResult> {
  const name = call.params.name;
  if (typeof name !== 'string') throw new RpcFault(RPC.invalidParams, 'params.name is required');
  const args = call.params.arguments ?? {};
  if (
    typeof args !== 'object' ||
    Array.isArray(args) ||
    !Object.values(args).every((v) => typeof v === 'string')
  ) {
    throw new RpcFault(RPC.invalidParams, 'params.arguments must be an object of strings');
  }
  const owner = (await deps.catalog()).promptOwner(name);
  if (!owner) throw new RpcFault(RPC.invalidParams, `Unknown prompt: ${name}`);
  try {
    return await withUpstream(deps, call.session, owner.server, (u) =>
      u.getPrompt(owner.own, args as Record<string, string>),
    );
  } catch (error) {
    failure(call.id, error);
  }
}

/** The session-bound methods of /mcp. Unknown methods are JSON-RPC "method not found". */
export async function callMethod(call: MethodCall, deps: MethodDeps): Promise<McpResult> {
  switch (call.method) {
    case 'ping':
      return {};
    case 'tools/list': {
      const [visible, catalog, search] = await Promise.all([
        visibleTools(call, deps),
        deps.catalog(),
        searchMode(deps),
      ]);
      return { tools: toolsToList(visible, catalog.aggregate ? search.mode : 'off', search.pinned) };
    }
    case 'tools/call':
      return callTool(call, deps);
    case 'resources/list': {
      const [lists, catalog] = await Promise.all([
        fromEveryServer(call, deps, (u) => u.listResources()),
        deps.catalog(),
      ]);
      return { resources: lists.flatMap((l) => l.items), ...composedHints(lists, catalog.aggregate) };
    }
    case 'resources/read':
      return readResource(call, deps);
    case 'prompts/list': {
      const [lists, { promptName, aggregate }] = await Promise.all([
        fromEveryServer(call, deps, (u) => u.listPrompts()),
        deps.catalog(),
      ]);
      return {
        prompts: lists.flatMap((l) =>
          l.items.map((p) => ({ ...p, name: promptName(l.server, String(p.name)) })),
        ),
        ...composedHints(lists, aggregate),
      };
    }
    case 'prompts/get':
      return getPrompt(call, deps);
    case 'resources/templates/list':
      return listResourceTemplates(call, deps);
    case 'completion/complete':
      return complete(call, deps);
    case 'logging/setLevel':
      return setLogLevel(call, deps);
    case 'resources/subscribe':
      return subscribe(call, deps);
    case 'resources/unsubscribe':
      return unsubscribe(call, deps);
    default:
      throw new RpcFault(RPC.methodNotFound, `Method not found: ${call.method}`);
  }
}

/** The catalog's tools the caller's role may list and call (security.mcp_tool_access). */
async function visibleTools(call: MethodCall, deps: MethodDeps): Promise<CatalogTool[]> {
  const [{ tools }, access] = await Promise.all([deps.catalog(), deps.toolAccess()]);
  return tools.filter((t) => mayUseTool(call.role, t.accessName, access));
}

const NO_SEARCH = { mode: 'off' as const, pinned: [] };
const searchMode = (deps: MethodDeps) => deps.toolSearch?.() ?? Promise.resolve(NO_SEARCH);

/** The upstream tools/call, as the MCP semantic conventions name a client span. */
function toolCallSpan(parent: Span, server: McpServerRow, tool: string): Span {
  if (!parent.recording) return parent;
  let address: string | undefined;
  try {
    address = new URL(server.endpointUrl).hostname;
  } catch {
    address = undefined;
  }
  return parent.child(`tools/call ${tool}`, 'client', {
    'mcp.method.name': 'tools/call',
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': tool,
    'server.address': address,
    'sluice.mcp.server': server.name,
  });
}
