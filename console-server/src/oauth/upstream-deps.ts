import { upstreamOAuthStore } from '@sluice/shared/db/repos';
import type { UpstreamOAuthDeps } from '@sluice/shared/mcp/oauth';
import { createMachineTokens, type MachineTokens } from '@sluice/shared/mcp/oauth';
import type { Context } from 'hono';
import type { ConsoleEnv } from '../types';
import { issuerOf } from './server-deps';

export const UPSTREAM_CALLBACK_PATH = '/oauth/upstream/callback';
export const UPSTREAM_CLIENT_DOCUMENT_PATH = '/oauth/upstream-client.json';

/**
 * Sluice as the OAuth client of upstream MCP servers, for one console request. Its client ID
 * metadata document is offered only on https (an upstream must be able to fetch it).
 */
export function upstreamOAuth(c: Context<ConsoleEnv>): UpstreamOAuthDeps {
  const { deps } = c.var;
  const base = issuerOf(c);
  return {
    store: upstreamOAuthStore(deps.db, deps.secrets),
    kv: deps.redis,
    fetch,
    callbackUrl: `${base}${UPSTREAM_CALLBACK_PATH}`,
    clientMetadataUrl: base.startsWith('https://') ? `${base}${UPSTREAM_CLIENT_DOCUMENT_PATH}` : null,
    now: () => new Date(),
  };
}

/**
 * The tokens Sluice gets for itself from upstreams' authorization servers (machine auth types):
 * sealed in Redis, where the gateway finds them too.
 */
export function machineTokens(c: Context<ConsoleEnv>): MachineTokens {
  const { deps } = c.var;
  return createMachineTokens({ kv: deps.redis, secrets: deps.secrets, fetch, now: () => new Date() });
}
