import type { UserRole } from '../../db/schema/users';
import { type McpLogRecord, type McpResult, UpstreamMcpUnavailable } from '../ports';
import { type McpToolAccess, mayUseTool } from './access';
import type { McpCatalog } from './catalog';
import { type JsonRpcId, McpRpcError, RPC, RpcFault } from './jsonrpc';
import { type SessionContext, type UpstreamCallDeps, withUpstream } from './upstream-calls';

export interface MethodDeps extends UpstreamCallDeps {
  catalog(): Promise<McpCatalog>;
  /** Appends a tools/call to the MCP call log; resolves once stored (hand it to waitUntil). */
  /**
   * Queues the call's log row; a batch it opens is handed to `keepAlive` (waitUntil), so no
   * request waits for a batch another request keeps. Never rejects.
   */
  logCall(record: McpLogRecord, keepAlive: (work: Promise<unknown>) => void): Promise<void>;
  /** security.mcp_tool_access, as the settings cache has it. */
  toolAccess(): Promise<McpToolAccess>;
  warn(message: string, fields?: Record<string, unknown>): void;
}

export interface MethodCall {
  id: JsonRpcId;
  method: string;
  params: Record<string, unknown>;
  session: SessionContext;
  /** The caller's role (an API key's owner's): decides which tools it sees and may call. */
  role: UserRole;
  /** Keeps the isolate alive for work after the response (the call log). */
  waitUntil(work: Promise<unknown>): void;
  /** Progress notifications of a tools/call, when the client asked for them. */
  onProgress?: (params: McpResult) => void;
}

/** A JSON-RPC error the upstream answered with (it carries a numeric code), passed on as it is. */
function upstreamRpcError(error: unknown): { code: number; message: string; data?: unknown } | null {
  if (!(error instanceof Error) || typeof (error as { code?: unknown }).code !== 'number') return null;
  const { code, data } = error as Error & { code: number; data?: unknown };
  return { code, message: error.message, ...(data !== undefined && { data }) };
}

/** Unreachable upstream: HTTP 502 (spec). An upstream JSON-RPC error: the same error, HTTP 200. */
function failure(id: JsonRpcId, error: unknown): never {
  const rpc = upstreamRpcError(error);
  if (rpc) throw new RpcFault(rpc.code, rpc.message, rpc.data);
  const message =
    error instanceof UpstreamMcpUnavailable ? error.message : `Upstream MCP server failed: ${String(error)}`;
  throw new McpRpcError(502, RPC.internalError, message, id);
}

async function callTool(call: MethodCall, deps: MethodDeps): Promise<McpResult> {
  const name = call.params.name;
  if (typeof name !== 'string') throw new RpcFault(RPC.invalidParams, 'params.name is required');
  const args = call.params.arguments ?? {};
  if (typeof args !== 'object' || Array.isArray(args)) {
    throw new RpcFault(RPC.invalidParams, 'params.arguments must be an object');
  }
  const entry = (await deps.catalog()).toolByName.get(name);
  if (!entry) throw new RpcFault(RPC.invalidParams, `Unknown tool: ${name}`);
  if (!mayUseTool(call.role, entry.accessName, await deps.toolAccess())) {
    throw new RpcFault(RPC.invalidParams, `Tool not allowed: ${name}`);
  }
  const started = Date.now();
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
        error,
      },
      call.waitUntil,
    );
  try {
    const result = await withUpstream(deps, call.session, entry.server, (upstream) =>
      upstream.callTool(entry.tool.name, args as Record<string, unknown>, call.onProgress),
    );
    log(result.isError === true ? toolErrorText(result) : null);
    return result;
  } catch (error) {
    log(error instanceof Error ? error.message : String(error));
    failure(call.id, error);
  }
}

/** What a tool said when it reported an error (isError), for the log. */
function toolErrorText(result: McpResult): string {
  const content = Array.isArray(result.content) ? result.content : [];
  const text = content.map((c) => (c as { text?: unknown }).text).filter((t) => typeof t === 'string');
  return text.join(' ').slice(0, 1000) || 'tool reported an error';
}

/** Asks every active server, skipping (and logging) those that fail: one bad server must not hide the rest. */
async function fromEveryServer<T>(
  call: MethodCall,
  deps: MethodDeps,
  ask: (upstream: Parameters<Parameters<typeof withUpstream>[3]>[0]) => Promise<T[]>,
): Promise<Array<{ server: string; items: T[] }>> {
  const { servers } = await deps.catalog();
  const answers = await Promise.all(
    servers.map(async (server) => {
      try {
        return { server: server.name, items: await withUpstream(deps, call.session, server, ask) };
      } catch (error) {
        // A server without that capability answers "method not found": nothing to list.
        if (upstreamRpcError(error)?.code === RPC.methodNotFound)
          return { server: server.name, items: [] as T[] };
        deps.warn('MCP server left out of a list', {
          server: server.name,
          method: call.method,
          error: String(error),
        });
        return { server: server.name, items: [] as T[] };
      }
    }),
  );
  return answers;
}

async function readResource(call: MethodCall, deps: MethodDeps): Promise<McpResult> {
  const uri = call.params.uri;
  if (typeof uri !== 'string') throw new RpcFault(RPC.invalidParams, 'params.uri is required');
  const lists = await fromEveryServer(call, deps, (u) => u.listResources());
  const owner = lists.find((l) => l.items.some((r) => r.uri === uri));
  const server = owner && (await deps.catalog()).serverByName.get(owner.server);
  if (!server) throw new RpcFault(RPC.invalidParams, `Unknown resource: ${uri}`);
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
      const [{ tools }, access] = await Promise.all([deps.catalog(), deps.toolAccess()]);
      return {
        tools: tools
          .filter((t) => mayUseTool(call.role, t.accessName, access))
          .map((t) => ({
            name: t.publicName,
            description: t.tool.description ?? '',
            inputSchema: t.tool.inputSchema,
          })),
      };
    }
    case 'tools/call':
      return callTool(call, deps);
    case 'resources/list': {
      const lists = await fromEveryServer(call, deps, (u) => u.listResources());
      return { resources: lists.flatMap((l) => l.items) };
    }
    case 'resources/read':
      return readResource(call, deps);
    case 'prompts/list': {
      const [lists, { promptName }] = await Promise.all([
        fromEveryServer(call, deps, (u) => u.listPrompts()),
        deps.catalog(),
      ]);
      return {
        prompts: lists.flatMap((l) =>
          l.items.map((p) => ({ ...p, name: promptName(l.server, String(p.name)) })),
        ),
      };
    }
    case 'prompts/get':
      return getPrompt(call, deps);
    default:
      throw new RpcFault(RPC.methodNotFound, `Method not found: ${call.method}`);
  }
}
