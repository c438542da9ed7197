import type { McpResult } from '../ports';
import { RPC, RpcFault } from './jsonrpc';
import type { MethodCall, MethodDeps } from './methods';
import { resourceOwner } from './server-methods';
import { failure } from './upstream-answers';
import { withUpstream } from './upstream-calls';

function uriOf(call: MethodCall): string {
  const uri = call.params.uri;
  if (typeof uri !== 'string' || uri === '') throw new RpcFault(RPC.invalidParams, 'params.uri is required');
  return uri;
}

/**
 * resources/subscribe: passed to the server that has the resource, and kept in the session, so
 * the session's listening stream (listen-stream.ts, GET /mcp) hears that server's updates.
 */
export async function subscribe(call: MethodCall, deps: MethodDeps): Promise<McpResult> {
  const uri = uriOf(call);
  const server = await resourceOwner(call, deps, uri);
  try {
    await withUpstream(deps, call.session, server, (u) => u.subscribeResource(uri));
  } catch (error) {
    failure(call.id, error);
  }
  const { record } = call.session;
  if (record.subscriptions?.[uri] !== server.id) {
    record.subscriptions = { ...record.subscriptions, [uri]: server.id };
    await deps.sessions.save(call.session.id, record);
  }
  return {};
}

/** resources/unsubscribe: passed on and forgotten; a URI the session did not subscribe to is a no-op. */
export async function unsubscribe(call: MethodCall, deps: MethodDeps): Promise<McpResult> {
  const uri = uriOf(call);
  const { record } = call.session;
  const serverId = record.subscriptions?.[uri];
  if (serverId === undefined) return {};
  const server = (await deps.catalog()).servers.find((s) => s.id === serverId);
  if (server) {
    try {
      await withUpstream(deps, call.session, server, (u) => u.unsubscribeResource(uri));
    } catch (error) {
      failure(call.id, error);
    }
  }
  const { [uri]: _gone, ...rest } = record.subscriptions ?? {};
  record.subscriptions = rest;
  await deps.sessions.save(call.session.id, record);
  return {};
}
