import type { McpServerRow } from '../../../db/repos/mcp-repo';
import type { ListMethod } from '../../cache-hints';
import type { McpResult } from '../../ports';
import type { ListLookup, ListRequest } from '../../upstream/list-cache';
import { rewriteRpcAnswer } from '../../upstream/rpc-answers';
import { mayUseTool } from '../access';
import { publicName } from '../catalog';
import type { McpPost } from '../handle-mcp';
import { type JsonRpcRequest, rpcResult } from '../jsonrpc';
import type { MethodDeps } from '../methods';

/**
 * The page a list request asks for: null for the first. undefined when its params say more than
 * a cursor: what else they say may change the answer, so such a request is not cached.
 */
function pageOf(params: Record<string, unknown> | undefined): string | null | undefined {
  const { _meta: _ignored, cursor, ...rest } = params ?? {};
  if (Object.keys(rest).length > 0) return undefined;
  if (cursor === undefined) return null;
  return typeof cursor === 'string' ? cursor : undefined;
}

/**
 * What the client gets of a server's list: tools/list only the tools the caller's role may use,
 * and so private whatever the server said; the other lists as they are.
 */
async function shaperFor(
  post: McpPost,
  method: ListMethod,
  server: McpServerRow,
  deps: MethodDeps,
): Promise<(result: McpResult) => McpResult> {
  if (method !== 'tools/list') return (result) => result;
  const access = await deps.toolAccess();
  return (result) => ({
    ...result,
    tools: (Array.isArray(result.tools) ? result.tools : []).filter((tool) =>
      mayUseTool(
        post.principal.role,
        publicName(server.name, String((tool as { name?: unknown }).name)),
        access,
      ),
    ),
    cacheScope: 'private',
  });
}

async function lookupFor(
  post: McpPost,
  message: JsonRpcRequest,
  method: ListMethod,
  server: McpServerRow,
  deps: MethodDeps,
): Promise<ListLookup | null> {
  const cursor = pageOf(message.params);
  if (!deps.listCache || cursor === undefined) return null;
  const userId = post.principal.userId;
  const target = await deps.targetOf(server, userId);
  const request: ListRequest = { serverId: server.id, method, cursor, userId, credential: target.authSecret };
  return deps.listCache.lookup(request);
}

/**
 * A list request forwarded to a server that speaks the revision, through the gateway's list
 * cache (upstream/list-cache.ts): a result kept for it answers at once, its ttlMs what is left;
 * else the server's answer is passed on and kept as its hints allow. `relay` passes on an
 * answer that is not a list (an HTTP error).
 */
export async function forwardList(
  post: McpPost,
  message: JsonRpcRequest & { id: string | number },
  method: ListMethod,
  server: McpServerRow,
  deps: MethodDeps,
  forward: () => Promise<Response>,
  relay: (upstream: Response) => Response,
): Promise<Response> {
  const [lookup, shape] = await Promise.all([
    lookupFor(post, message, method, server, deps),
    shaperFor(post, method, server, deps),
  ]);
  if (lookup?.cached) {
    return new Response(JSON.stringify(rpcResult(message.id, shape(lookup.cached.result))), {
      headers: { 'content-type': 'application/json' },
    });
  }
  const upstream = await forward();
  if (!upstream.ok) return relay(upstream);
  let fetched: McpResult | undefined;
  const answered = await rewriteRpcAnswer(upstream, (result) => {
    fetched = result;
    return shape(result);
  });
  if (fetched && lookup) await lookup.keep(fetched);
  return answered;
}
