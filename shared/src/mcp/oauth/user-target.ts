import { RpcFault } from '../gateway/jsonrpc';
import type { McpServerTarget } from '../ports';
import { upstreamAccessToken } from './connect';
import type { UpstreamOAuthDeps } from './ports';

/** MCP's "URL elicitation required" error (2025-11-25): the user must visit a URL first. */
export const URL_ELICITATION_REQUIRED = -32042;

/** Where a user connects their accounts: the web UI's connections page. */
export const connectionsPageOf = (consoleUrl: string) => `${consoleUrl}/mcp/connections`;

/**
 * A server registered with auth_type oauth, for one user: called with that user's own token.
 * Not connected yet: a JSON-RPC error that says where to connect, as a URL elicitation the
 * client can open for the user.
 */
export async function targetForUser(
  target: McpServerTarget,
  userId: string,
  deps: UpstreamOAuthDeps,
  consoleUrl: string | null,
): Promise<McpServerTarget> {
  if (target.authType !== 'oauth') return target;
  const token = await upstreamAccessToken(target, userId, deps);
  if (!token) throw connectFirst(target, consoleUrl);
  return {
    ...target,
    authType: 'bearer',
    authSecret: token,
    // The server refused the token (revoked upstream, or its authorization server changed):
    // it is forgotten, and the user asked to connect again (discovering the server afresh).
    onUnauthorized: async () => {
      await deps.store.deleteTokens(target.id, userId);
      throw connectFirst(target, consoleUrl);
    },
  };
}

function connectFirst(target: McpServerTarget, consoleUrl: string | null): RpcFault {
  const where = consoleUrl ? connectionsPageOf(consoleUrl) : null;
  const message = `Connect your ${target.name} account first${where ? `: ${where}` : ' in the Sluice console (MCP → Connections)'}`;
  return new RpcFault(
    URL_ELICITATION_REQUIRED,
    message,
    where
      ? { elicitations: [{ mode: 'url', elicitationId: `connect-${target.id}`, url: where, message }] }
      : undefined,
  );
}
