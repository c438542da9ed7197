import type { Principal } from '../../auth/gateway/principal';
import type { McpServerRow } from '../../db/repos/mcp-repo';
import { knownToSpeakStateless } from '../upstream/stateless-upstream';
import { mayUseTool } from './access';
import { type McpCatalog, publicName } from './catalog';
import { endpointDeps } from './handle-mcp';
import { McpRpcError, RPC, RpcFault, rpcFaultBody } from './jsonrpc';
import type { MethodDeps } from './methods';
import { mcpNameOf, namesItsTarget } from './standard-headers';
import { STATELESS_VERSIONS } from './stateless/envelope';
import { REMOVED } from './stateless/handle-stateless';
import { SEARCH_TOOL_NAME } from './tool-search';

/**
 * What a POST's Mcp-Method and Mcp-Name headers (2026-07-28 standard headers) let the gateway
 * decide before it reads the body: a request it would refuse anyway is refused at once, its body
 * never parsed. Only what the body could not change is decided here, from the in-isolate catalog
 * and settings the body path reads too (no store round trip of its own); everything else is left
 * to the body, which must then say what the headers said (standard-headers.ts).
 */
export interface HeaderRequest {
  principal: Principal;
  /** The server of /mcp/{server}; null on /mcp. */
  scope: string | null;
  sessionId: string | null;
  /** The MCP-Protocol-Version header. */
  protocolVersion: string | null;
  /** The client's MCP-* headers, names in lower case. */
  headers: Readonly<Record<string, string>>;
}

export type HeaderDecision =
  /** No Mcp-Method on a session's (or a session-era) request: the body decides everything. */
  | { kind: 'body' }
  /** Refused; `response` is the answer the body path would give, its id null (the body is unread). */
  | { kind: 'refused'; response: Response }
  /** Nothing to refuse yet; `server` is the upstream the request goes to when the headers say it. */
  | { kind: 'allowed'; server: McpServerRow | null };

/** The methods a bridged stateless request may name (methods.ts callMethod, and the revision's own). */
export const BRIDGED_METHODS = new Set([
  'server/discover',
  'subscriptions/listen',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'prompts/list',
  'prompts/get',
  'completion/complete',
]);

const BODY: HeaderDecision = { kind: 'body' };
const allowed = (server: McpServerRow | null = null): HeaderDecision => ({ kind: 'allowed', server });

/** The JSON-RPC error the body path answers with HTTP 200 (the request arrived, the method failed). */
function refused(message: string): HeaderDecision {
  const body = rpcFaultBody(null, new RpcFault(RPC.invalidParams, message));
  return {
    kind: 'refused',
    response: new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } }),
  };
}

/**
 * Decides from the headers alone: an inactive /mcp/{server} (404, any request); for a stateless
 * request, a missing Mcp-Method, or Mcp-Name with a method that names its target (400), a method the revision removed or the endpoint does not
 * serve (404), a tool the caller's role may not use, or a tool, prompt or resource the endpoint
 * does not have. A
 * session's requests are decided after their session, from the body, as before.
 */
export async function decideFromHeaders(request: HeaderRequest, deps: MethodDeps): Promise<HeaderDecision> {
  const method = request.headers['mcp-method'];
  const stateless =
    request.sessionId === null && STATELESS_VERSIONS.some((version) => version === request.protocolVersion);
  if (method === undefined) {
    // The revision makes Mcp-Method required on every POST: without it a stateless request is
    // refused as a header mismatch; session-era clients never had to send it.
    if (stateless) throw missingHeader('Mcp-Method');
    return BODY;
  }
  const endpoint = await endpointDeps(deps, request.scope);
  if (!stateless) return allowed();
  if (REMOVED.has(method)) throw notFound(method);
  const catalog = await endpoint.catalog();
  const own = request.scope === null ? undefined : catalog.serverByName.get(request.scope);
  // Whether /mcp/{server}'s requests are forwarded as they are (the server speaks the revision):
  // then the server, not the catalog, knows its methods and tools. undefined: not known yet.
  const forwarded = own && own.transportType === 'streamable_http' ? knownToSpeakStateless(own.id) : false;
  if (forwarded === false && !BRIDGED_METHODS.has(method) && !method.startsWith('notifications/'))
    throw notFound(method);
  const name = mcpNameOf(request.headers);
  if (name === undefined) {
    // Required with the methods that name a tool, prompt or resource, as Mcp-Method is.
    if (namesItsTarget(method)) throw missingHeader('Mcp-Name');
    return allowed(own ?? null);
  }
  if (method === 'tools/call') return decideToolCall(request, name, catalog, own, forwarded, deps);
  if (method === 'prompts/get') {
    const owner = catalog.promptOwner(name);
    return owner ? allowed(owner.server) : refused(`Unknown prompt: ${name}`);
  }
  // No server to own it (a virtual server, or none active): the body path finds none either.
  if (method === 'resources/read' && catalog.servers.length === 0)
    return refused(`Unknown resource: ${name}`);
  return allowed(own ?? null);
}

/** A tools/call, as methods.ts callTool (bridged) or passthrough.ts checkToolCall (forwarded) decides it. */
async function decideToolCall(
  request: HeaderRequest,
  name: string,
  catalog: McpCatalog,
  own: McpServerRow | undefined,
  forwarded: boolean | undefined,
  deps: MethodDeps,
): Promise<HeaderDecision> {
  const role = request.principal.role;
  const entry = catalog.toolByName.get(name);
  if (entry) {
    const may = mayUseTool(role, entry.accessName, await deps.toolAccess());
    return may ? allowed(entry.server) : refused(`Tool not allowed: ${name}`);
  }
  if (own && forwarded !== false) {
    if (forwarded === undefined) return allowed(own);
    const may = mayUseTool(role, publicName(own.name, name), await deps.toolAccess());
    return may ? allowed(own) : refused(`Tool not allowed: ${name}`);
  }
  if (name === SEARCH_TOOL_NAME && catalog.aggregate) {
    const search = (await deps.toolSearch?.())?.mode ?? 'off';
    if (search !== 'off') return allowed();
  }
  return refused(`Unknown tool: ${name}`);
}

function notFound(method: string): McpRpcError {
  return new McpRpcError(404, RPC.methodNotFound, `Method not found: ${method}`, null);
}

function missingHeader(header: 'Mcp-Method' | 'Mcp-Name'): McpRpcError {
  return new McpRpcError(400, RPC.headerMismatch, `Missing ${header} header`, null);
}
