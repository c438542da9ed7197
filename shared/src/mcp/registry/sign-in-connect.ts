import { listTokenExchangeServers } from '../../db/repos/mcp-repo';
import type { Db } from '../../db/types';
import type { SecretBox } from '../../secrets/secret-box';
import { connectWithIdToken } from '../oauth/exchange-target';
import type { UpstreamOAuthStore } from '../oauth/ports';
import { toMcpServerTarget } from './target';

/**
 * A console sign-in through SSO brings the user's ID token: every server of auth_type
 * oauth_token_exchange that trusts the same identity provider (its issuer, and Sluice's client
 * there as the token's audience) is connected with it, so users who sign in with the company's
 * identity provider never connect those servers by hand. A server that refuses is left
 * unconnected (the user can still connect it) and said in the log.
 */
export interface SignInConnectDeps {
  db: Db;
  secrets: SecretBox;
  store: UpstreamOAuthStore;
  fetch: typeof fetch;
  now(): Date;
  warn(message: string, fields: Record<string, unknown>): void;
}

const sameIssuer = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/** Returns the names of the servers connected. */
export async function connectThroughSignIn(
  deps: SignInConnectDeps,
  userId: string,
  identity: { issuer: string; clientId: string; idToken: string },
): Promise<string[]> {
  const servers = (await listTokenExchangeServers(deps.db)).filter(
    (row) =>
      row.idpIssuer !== null &&
      sameIssuer(row.idpIssuer, identity.issuer) &&
      row.idpClientId === identity.clientId,
  );
  const connect = async (row: (typeof servers)[number]): Promise<string | null> => {
    try {
      const target = await toMcpServerTarget(row, deps.secrets);
      if (!target.exchange) return null;
      const ref = { id: row.id, name: row.name, endpointUrl: row.endpointUrl, exchange: target.exchange };
      await connectWithIdToken(ref, userId, identity.idToken, deps);
      return row.name;
    } catch (error) {
      deps.warn('MCP server not connected through the sign-in', {
        server: row.name,
        error: error instanceof Error ? error.message : String(error),
      });
      return null;
    }
  };
  const connected = await Promise.all(servers.map(connect));
  return connected.filter((name): name is string => name !== null);
}
