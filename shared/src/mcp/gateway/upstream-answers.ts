import { type UpstreamList, UpstreamMcpUnavailable } from '../ports';
import { type JsonRpcId, McpRpcError, RPC, RpcFault } from './jsonrpc';
import type { MethodCall, MethodDeps } from './methods';
import { withUpstream } from './upstream-calls';

/** A JSON-RPC error the upstream answered with (it carries a numeric code), passed on as it is. */
export function upstreamRpcError(error: unknown): { code: number; message: string; data?: unknown } | null {
  if (!(error instanceof Error) || typeof (error as { code?: unknown }).code !== 'number') return null;
  const { code, data } = error as Error & { code: number; data?: unknown };
  return { code, message: error.message, ...(data !== undefined && { data }) };
}

/** Unreachable upstream: HTTP 502. An upstream JSON-RPC error: the same error, HTTP 200. */
export function failure(id: JsonRpcId, error: unknown): never {
  // The gateway's own answer (e.g. a user who must connect their account first) stays as it is,
  // however deep the upstream client wrapped it.
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof RpcFault) throw cause;
  }
  const rpc = upstreamRpcError(error);
  if (rpc) throw new RpcFault(rpc.code, rpc.message, rpc.data);
  const message =
    error instanceof UpstreamMcpUnavailable ? error.message : `Upstream MCP server failed: ${String(error)}`;
  throw new McpRpcError(502, RPC.internalError, message, id);
}

/** One server's part of a list the gateway composes. */
export interface ServerList extends UpstreamList {
  server: string;
}

/**
 * Asks every active server, skipping (and logging) those that fail: one bad server must not
 * hide the rest. A part left out has no caching hints (ttlMs 0): the server may answer next time.
 */
export async function fromEveryServer(
  call: MethodCall,
  deps: MethodDeps,
  ask: (upstream: Parameters<Parameters<typeof withUpstream>[3]>[0]) => Promise<UpstreamList>,
): Promise<ServerList[]> {
  const { servers } = await deps.catalog();
  return Promise.all(
    servers.map(async (server) => {
      try {
        return { server: server.name, ...(await withUpstream(deps, call.session, server, ask)) };
      } catch (error) {
        // A server without that capability answers "method not found": nothing to list.
        if (upstreamRpcError(error)?.code !== RPC.methodNotFound)
          deps.warn('MCP server left out of a list', {
            server: server.name,
            method: call.method,
            error: String(error),
          });
        return { server: server.name, items: [] };
      }
    }),
  );
}
