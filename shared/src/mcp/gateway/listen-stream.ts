import type { McpServerRow } from '../../db/repos/mcp-repo';
import type { ClientChannel, UpstreamMcpSession } from '../ports';
import type { McpCatalog } from './catalog';
import { createClientChannel } from './client-channel';
import { eventId, parseEventId, SSE_RESPONSE_HEADERS, sseEvent, sseMessage } from './event-stream';
import { endpointDeps, type McpPost, requireSession } from './handle-mcp';
import type { MethodDeps } from './methods';
import type { McpSessionRecord } from './sessions';

/**
 * How often the stream re-reads the session for subscriptions added or dropped meanwhile: every
 * second while it has some, or in its first half minute (clients subscribe right after they
 * connect); every 5 s otherwise, so an idle client costs little.
 */
export const LISTEN_POLL_MS = { active: 1_000, idle: 5_000, eagerFirstMs: 30_000 };
/** A stream ends after this (the client opens another); keep-alive comments flow meanwhile. */
export const LISTEN_MAX_MS = 5 * 60_000;
const KEEP_ALIVE_MS = 15_000;

export type McpGet = Pick<McpPost, 'principal' | 'sessionId' | 'scope'> & {
  /** Aborts when the client goes away. */
  signal?: AbortSignal;
  /** Last-Event-ID: the client resumes a POST's event stream from there (event-stream.ts). */
  lastEventId?: string | null;
};

/**
 * GET /mcp with the session: the client's stream of messages that answer no request. While it
 * is open, the gateway listens to the servers holding the session's subscriptions (their own
 * GET streams, resumed upstream sessions) and passes their resource updates on, with whatever
 * they ask of the client meanwhile. The session is re-read from Redis (LISTEN_POLL_MS), so a
 * subscription made through another isolate or instance is heard too.
 */
export async function handleMcpGet(get: McpGet, aggregate: MethodDeps): Promise<Response> {
  const deps = await endpointDeps(aggregate, get.scope);
  const session = await requireSession(get, deps, null);
  const from = parseEventId(get.lastEventId);
  if (from) return resumed(session.id, from, deps, get.signal);
  const encoder = new TextEncoder();
  let stopped = false;
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const write = (text: string) => {
        if (!stopped) controller.enqueue(encoder.encode(text));
      };
      const channel = createClientChannel({
        capabilities: session.record.clientCapabilities ?? {},
        send: (message) => write(sseEvent(message)),
        answers: deps.sessions,
        sessionId: session.id,
        timeoutMs: deps.timeoutMs,
      });
      get.signal?.addEventListener('abort', () => {
        stopped = true;
      });
      await listen(session.id, deps, channel, () => stopped, write);
      stopped = true;
      try {
        controller.close();
      } catch {
        // Already cancelled by the client.
      }
    },
    cancel() {
      stopped = true;
    },
  });
  return new Response(body, {
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
  });
}

/**
 * The rest of a POST's event stream after the client's Last-Event-ID: what was kept, then what
 * the call (on whichever isolate runs it) keeps meanwhile, until its answer or the MCP timeout.
 */
function resumed(
  sessionId: string,
  from: { streamId: string; index: number },
  deps: MethodDeps,
  signal: AbortSignal | undefined,
): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const deadline = Date.now() + deps.timeoutMs;
      let index = from.index;
      let pause = 25;
      try {
        while (!signal?.aborted && Date.now() < deadline) {
          const events = await deps.sessions.eventsAfter(sessionId, from.streamId, index);
          for (const event of events) {
            controller.enqueue(
              encoder.encode(sseMessage(eventId(from.streamId, event.index), event.message)),
            );
            index = event.index;
            if (event.final) return;
          }
          pause = events.length > 0 ? 25 : Math.min(500, pause * 2);
          await new Promise((resolve) => setTimeout(resolve, pause));
        }
      } catch {
        // The client left.
      } finally {
        try {
          controller.close();
        } catch {
          // Already cancelled.
        }
      }
    },
  });
  return new Response(body, { headers: SSE_RESPONSE_HEADERS });
}

async function listen(
  sessionId: string,
  deps: MethodDeps,
  channel: ClientChannel,
  stopped: () => boolean,
  write: (text: string) => void,
): Promise<void> {
  const listeners = new Map<string, UpstreamMcpSession>();
  const skipped = new Set<string>();
  const started = Date.now();
  let lastWrite = started;
  const tools = createToolListWatch(await deps.catalog());
  try {
    while (!stopped() && Date.now() - started < LISTEN_MAX_MS) {
      const record = await deps.sessions.open(sessionId);
      if (!record) break;
      await follow(record, { id: sessionId, deps, channel, listeners, skipped });
      if (tools.changed(await deps.catalog())) {
        write(sseEvent({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }));
        lastWrite = Date.now();
      }
      if (Date.now() - lastWrite >= KEEP_ALIVE_MS) {
        write(': keep-alive\n\n');
        lastWrite = Date.now();
      }
      const eager = listeners.size > 0 || Date.now() - started < LISTEN_POLL_MS.eagerFirstMs;
      await new Promise((resolve) =>
        setTimeout(resolve, eager ? LISTEN_POLL_MS.active : LISTEN_POLL_MS.idle),
      );
    }
  } finally {
    await Promise.all([...listeners.values()].map((upstream) => upstream.close().catch(() => {})));
  }
}

/**
 * Whether the tools a catalog offers differ from the ones last seen (names, descriptions,
 * schemas). A catalog is rebuilt only when the registry's version moves, so the same object
 * means no change and costs nothing to check.
 */
export function createToolListWatch(first: McpCatalog): { changed(catalog: McpCatalog): boolean } {
  let seen = first;
  const fingerprint = (catalog: McpCatalog) =>
    JSON.stringify(catalog.tools.map((t) => [t.publicName, t.tool.description, t.tool.inputSchema]));
  let print = fingerprint(first);
  return {
    changed(catalog) {
      if (catalog === seen) return false;
      seen = catalog;
      const next = fingerprint(catalog);
      if (next === print) return false;
      print = next;
      return true;
    },
  };
}

interface Following {
  id: string;
  deps: MethodDeps;
  channel: ClientChannel;
  /** Open upstream listeners, by server id. */
  listeners: Map<string, UpstreamMcpSession>;
  /** Servers that have no stream to listen to (legacy SSE): not tried again. */
  skipped: Set<string>;
}

/** Listens to every server the session subscribes on, and stops listening to the others. */
async function follow(record: McpSessionRecord, following: Following): Promise<void> {
  const { deps, listeners } = following;
  const wanted = new Set(Object.values(record.subscriptions ?? {}));
  for (const [serverId, upstream] of listeners) {
    if (wanted.has(serverId)) continue;
    listeners.delete(serverId);
    await upstream.close().catch(() => {});
  }
  const servers = (await deps.catalog()).servers;
  for (const serverId of wanted) {
    const server = servers.find((s) => s.id === serverId);
    if (listeners.has(serverId) || following.skipped.has(serverId) || !server) continue;
    const upstream = await listenTo(server, record, following).catch((error: unknown) => {
      deps.warn('mcp: cannot listen to server', { server: server.name, error: String(error) });
      return null;
    });
    if (upstream) listeners.set(serverId, upstream);
    else following.skipped.add(serverId);
  }
}

/** The upstream session the subscription was made in, resumed with its stream open. */
async function listenTo(
  server: McpServerRow,
  record: McpSessionRecord,
  { deps, channel }: Following,
): Promise<UpstreamMcpSession | null> {
  const resumeSessionId = record.upstream[server.id];
  if (server.transportType !== 'streamable_http' || !resumeSessionId) return null;
  const upstream = await deps.connector.connect(await deps.targetOf(server, record.userId), {
    timeoutMs: deps.timeoutMs,
    resumeSessionId,
    channel,
  });
  await upstream.listen();
  return upstream;
}
