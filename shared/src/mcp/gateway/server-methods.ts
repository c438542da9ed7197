import type { McpServerRow } from '../../db/repos/mcp-repo';
import { composedHints } from '../cache-hints';
import type { McpResult } from '../ports';
import { RPC, RpcFault } from './jsonrpc';
import type { MethodCall, MethodDeps } from './methods';
import { failure, fromEveryServer } from './upstream-answers';
import { withUpstream } from './upstream-calls';

/** RFC 5424 levels, as MCP's logging/setLevel takes them. */
const LOG_LEVELS = new Set(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']);

/**
 * logging/setLevel: passed to every server of the endpoint (those without logging skip it), and
 * kept in the session: from then on its tool calls stream, so the servers' messages reach it.
 */
export async function setLogLevel(call: MethodCall, deps: MethodDeps): Promise<McpResult> {
  const level = call.params.level;
  if (typeof level !== 'string' || !LOG_LEVELS.has(level)) {
    throw new RpcFault(RPC.invalidParams, `params.level must be one of ${[...LOG_LEVELS].join(', ')}`);
  }
  await fromEveryServer(call, deps, async (u) => {
    await u.setLoggingLevel(level);
    return { items: [] };
  });
  if (call.session.record.logLevel !== level) {
    call.session.record.logLevel = level;
    await deps.sessions.save(call.session.id, call.session.record);
  }
  return {};
}

/** resources/templates/list: every server's templates, as each sent them. */
export async function listResourceTemplates(call: MethodCall, deps: MethodDeps): Promise<McpResult> {
  const [lists, { aggregate }] = await Promise.all([
    fromEveryServer(call, deps, (u) => u.listResourceTemplates()),
    deps.catalog(),
  ]);
  return { resourceTemplates: lists.flatMap((l) => l.items), ...composedHints(lists, aggregate) };
}

/**
 * completion/complete for a prompt argument (`ref/prompt`, by its published name) or a resource
 * template (`ref/resource`, by the server whose template it is).
 */
export async function complete(call: MethodCall, deps: MethodDeps): Promise<McpResult> {
  const ref = call.params.ref as { type?: unknown; name?: unknown; uri?: unknown } | undefined;
  const catalog = await deps.catalog();
  let server: McpServerRow | undefined;
  let forwarded = ref;
  if (ref?.type === 'ref/prompt' && typeof ref.name === 'string') {
    const owner = catalog.promptOwner(ref.name);
    server = owner?.server;
    forwarded = { ...ref, name: owner?.own };
  } else if (ref?.type === 'ref/resource' && typeof ref.uri === 'string') {
    server = await templateOwner(call, deps, ref.uri);
  } else {
    throw new RpcFault(RPC.invalidParams, 'params.ref must be a ref/prompt or ref/resource');
  }
  if (!server) throw new RpcFault(RPC.invalidParams, 'Unknown completion reference');
  const params = { ...call.params, ref: forwarded };
  try {
    return await withUpstream(deps, call.session, server, (u) => u.complete(params));
  } catch (error) {
    failure(call.id, error);
  }
}

/**
 * The server that has the resource: the one that lists it, else the one whose template matches
 * it (a templated URI), else, on an endpoint of one server, that server.
 */
export async function resourceOwner(call: MethodCall, deps: MethodDeps, uri: string): Promise<McpServerRow> {
  const lists = await fromEveryServer(call, deps, (u) => u.listResources());
  const owner = lists.find((l) => l.items.some((r) => r.uri === uri));
  const server = owner
    ? (await deps.catalog()).serverByName.get(owner.server)
    : await templateOwner(call, deps, uri);
  if (!server) throw new RpcFault(RPC.invalidParams, `Unknown resource: ${uri}`);
  return server;
}

/** The server one of whose templates is `uri` itself (a reference) or matches it (a read). */
export async function templateOwner(
  call: MethodCall,
  deps: MethodDeps,
  uri: string,
): Promise<McpServerRow | undefined> {
  const { servers, serverByName } = await deps.catalog();
  if (servers.length === 1) return servers[0];
  const lists = await fromEveryServer(call, deps, (u) => u.listResourceTemplates());
  const owner = lists.find((l) =>
    l.items.some(
      (t) => typeof t.uriTemplate === 'string' && (t.uriTemplate === uri || matches(t.uriTemplate, uri)),
    ),
  );
  return owner && serverByName.get(owner.server);
}

/** A level-1 URI template (`{name}` expressions) matched against a URI. */
function matches(template: string, uri: string): boolean {
  const pattern = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${pattern}$`).test(uri);
}
