import type { McpServerRow } from '../../db/repos/mcp-repo';
import type { ClientChannel, McpServerTarget, UpstreamMcpConnector, UpstreamMcpSession } from '../ports';
import { unreachableClient } from './client-channel';
import type { McpSessionRecord, McpSessionStore } from './sessions';

export interface UpstreamCallDeps {
  connector: UpstreamMcpConnector;
  /**
   * The server ready to call for this user: its registered credential, or (auth_type oauth) the
   * user's own token; throws McpRpcError when the user has not connected their account yet.
   */
  targetOf(server: McpServerRow, userId: string): Promise<McpServerTarget>;
  sessions: McpSessionStore;
  timeoutMs: number;
}

/** The client's session, as the calls of one request share it. */
export interface SessionContext {
  id: string;
  record: McpSessionRecord;
}

/**
 * Runs `work` on an upstream session of `server`: the streamable-HTTP session this client
 * session opened before (resumed without initialize, from any isolate), or a new one that is
 * remembered in the client session. A resumed session the upstream no longer knows is replaced
 * once. Legacy SSE cannot be resumed elsewhere: each call opens its own. The upstream client is
 * closed after the call (its session stays open upstream until the client session ends).
 * The upstream session is opened with the client's capabilities; what the upstream asks of
 * the client, or tells it, during the call goes through `channel` (by default nowhere: a call
 * answered as one JSON body cannot carry it).
 */
export async function withUpstream<T>(
  deps: UpstreamCallDeps,
  context: SessionContext,
  server: McpServerRow,
  work: (session: UpstreamMcpSession) => Promise<T>,
  channel: ClientChannel = unreachableClient(context.record.clientCapabilities ?? {}),
  traceHeaders?: Record<string, string>,
): Promise<T> {
  const userId = context.record.userId;
  const target = await deps.targetOf(server, userId);
  const resumeId =
    server.transportType === 'streamable_http' ? context.record.upstream[server.id] : undefined;
  if (resumeId) {
    const resumed = await deps.connector.connect(target, {
      timeoutMs: deps.timeoutMs,
      resumeSessionId: resumeId,
      channel,
      traceHeaders,
      userId,
    });
    try {
      return await work(resumed);
    } catch (error) {
      if (!isUnknownSession(error)) throw error;
    } finally {
      await resumed.close().catch(() => {});
    }
  }
  const fresh = await deps.connector.connect(target, {
    timeoutMs: deps.timeoutMs,
    channel,
    traceHeaders,
    userId,
  });
  try {
    // Remembered for every server the session uses (empty when there is nothing to resume):
    // deleting a server ends the sessions bound to it (handle-mcp.ts).
    const remembered = server.transportType === 'streamable_http' ? (fresh.sessionId ?? '') : '';
    if (context.record.upstream[server.id] !== remembered) {
      context.record.upstream[server.id] = remembered;
      await deps.sessions.save(context.id, context.record);
    }
    return await work(fresh);
  } finally {
    await fresh.close().catch(() => {});
  }
}

/** The upstream answered 404 to a session id it no longer knows. */
function isUnknownSession(error: unknown): boolean {
  const text = error instanceof Error ? error.message : String(error);
  return /\b404\b|session not found/i.test(text);
}
