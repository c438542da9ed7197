import type { Principal } from '../../../auth/gateway/principal';
import { sha256Hex } from '../../../util/encoding';
import type { MethodDeps } from '../methods';
import type { McpSessionRecord } from '../sessions';
import type { SessionContext } from '../upstream-calls';

/** The protocol the gateway speaks to upstreams on behalf of stateless clients. */
const UPSTREAM_PROTOCOL = '2025-11-25';

/**
 * Stateless clients have no session, but the upstream servers behind the gateway may well have
 * one (session-era servers need initialize). Each caller and endpoint gets one stand-in session
 * record in the session store, under an id derived from them, that remembers the upstream
 * sessions to resume: any isolate or instance serves the next request without a new handshake.
 * What an upstream asks of the client mid-call goes back as an input-required result.
 */
export async function statelessSession(
  principal: Principal,
  scope: string | null,
  deps: Pick<MethodDeps, 'sessions' | 'catalog'>,
): Promise<SessionContext> {
  const keyId = principal.kind === 'api_key' ? principal.keyId : null;
  const owner = keyId ? `key:${keyId}` : `user:${principal.userId}`;
  const id = uuidShaped(await sha256Hex(`sluice:mcp:stateless:${owner}:${scope ?? '*'}`));
  const stored = await deps.sessions.open(id);
  if (stored && stored.userId === principal.userId && (stored.scope ?? null) === scope) {
    const { registeredIds } = await deps.catalog();
    for (const serverId of Object.keys(stored.upstream)) {
      if (!registeredIds.has(serverId)) delete stored.upstream[serverId];
    }
    return { id, record: stored };
  }
  const record: McpSessionRecord = {
    userId: principal.userId,
    keyId,
    protocolVersion: UPSTREAM_PROTOCOL,
    upstream: {},
    // Upstream sessions offer what any client may answer; each request's own _meta says what
    // this client does (input-rounds.ts).
    clientCapabilities: { sampling: {}, elicitation: {}, roots: {} },
    ...(scope !== null && { scope }),
  };
  await deps.sessions.save(id, record);
  return { id, record };
}

/** The session store takes UUID-shaped ids only. */
function uuidShaped(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
