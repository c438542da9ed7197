import { RpcFault } from '../gateway/jsonrpc';
import type { McpServerTarget } from '../ports';
import { upstreamAccessToken } from './connect';
import { exchangedAccessToken } from './exchange-target';
import type { UpstreamOAuthDeps } from './ports';
import { unionOfScopes } from './scopes';

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
  if (target.authType === 'oauth_token_exchange') return targetForExchange(target, userId, deps, consoleUrl);
  if (target.authType !== 'oauth') return target;
  const credential = await upstreamAccessToken(target, userId, deps);
  if (!credential) throw connectFirst(target, consoleUrl);
  return {
    ...target,
    authType: 'bearer',
    authSecret: credential.token,
    // A DPoP-bound token goes with the DPoP scheme and a proof signed with its key.
    ...(credential.dpopKey ? { dpopKey: credential.dpopKey } : {}),
    // The server refused the token (revoked upstream, or its authorization server changed):
    // it is forgotten, and the user asked to connect again (discovering the server afresh).
    // A scope it found short is added to what the next sign-in asks for (step-up).
    onUnauthorized: async (refusal) => {
      if (refusal.status === 403 && refusal.scope) await widenScope(target.id, refusal.scope, deps);
      await deps.store.deleteTokens(target.id, userId);
      throw connectFirst(target, consoleUrl, refusal.status === 403 ? refusal.scope : null);
    },
  };
}

/**
 * auth_type oauth_token_exchange: the token Sluice got for the user from their ID token; one the
 * server refuses is replaced once (exchanged again). Without an ID token: connect first.
 */
async function targetForExchange(
  target: McpServerTarget,
  userId: string,
  deps: UpstreamOAuthDeps,
  consoleUrl: string | null,
): Promise<McpServerTarget> {
  const { exchange, ...rest } = target;
  if (!exchange) throw new Error(`MCP server ${target.name}: no identity provider configured`);
  const ref = { id: target.id, name: target.name, endpointUrl: target.endpointUrl, exchange };
  const token = await exchangedAccessToken(ref, userId, deps);
  if (!token) throw connectFirst(target, consoleUrl);
  return {
    ...rest,
    authType: 'bearer',
    authSecret: token,
    renewSecret: async (refused) => {
      const renewed = await exchangedAccessToken(ref, userId, deps, refused);
      if (!renewed) throw connectFirst(target, consoleUrl);
      return renewed;
    },
  };
}

/** The server's client asks for the challenged scope from now on, beside what it asked before. */
async function widenScope(serverId: string, challenged: string, deps: UpstreamOAuthDeps): Promise<void> {
  const client = await deps.store.client(serverId);
  if (client) await deps.store.saveClient({ ...client, scope: unionOfScopes(client.scope, challenged) });
}

function connectFirst(
  target: McpServerTarget,
  consoleUrl: string | null,
  scope: string | null = null,
): RpcFault {
  const where = consoleUrl ? connectionsPageOf(consoleUrl) : null;
  const first = scope
    ? `Connect your ${target.name} account again to grant ${scope}`
    : `Connect your ${target.name} account first`;
  const message = `${first}${where ? `: ${where}` : ' in the Sluice console (MCP → Connections)'}`;
  return new RpcFault(
    URL_ELICITATION_REQUIRED,
    message,
    where
      ? { elicitations: [{ mode: 'url', elicitationId: `connect-${target.id}`, url: where, message }] }
      : undefined,
  );
}
