import type { RedisPort } from '../../stores/redis-port';
import type { ClientChannel } from '../ports';

/**
 * MCP sessions live in Redis, not in an isolate, so any gateway isolate or instance serves any
 * request of a session. The record expires after `idleMs` without use; every use renews it.
 */
export interface McpSessionRecord {
  userId: string;
  keyId: string | null;
  protocolVersion: string;
  /** Servers this session used, by id: the upstream session id to resume, or '' (none to resume). */
  upstream: Record<string, string>;
  /** The one server of a /mcp/{server} session (absent: the aggregate /mcp). */
  scope?: string;
  /** What the client declared it answers (sampling, elicitation, roots): declared upstream too. */
  clientCapabilities?: ClientChannel['capabilities'];
  /** The level the client set with logging/setLevel: it wants the servers' log messages. */
  logLevel?: string;
  /** Resources the client subscribed to: URI → the id of the server that has it. */
  subscriptions?: Record<string, string>;
}

/** A client's JSON-RPC answer to a request the gateway relayed to it. */
export type RelayedAnswer =
  | { result: unknown }
  | { error: { code?: unknown; message?: unknown; data?: unknown } };

/** One message of a POST's event stream, kept so a client that lost the stream can resume it. */
export interface StoredEvent {
  message: unknown;
  /** The answer to the request: the stream ends after it. */
  final: boolean;
}

export interface McpSessionStore {
  create(record: McpSessionRecord): Promise<string>;
  /** The record, renewed; null when unknown, closed or expired. */
  open(id: string): Promise<McpSessionRecord | null>;
  save(id: string, record: McpSessionRecord): Promise<void>;
  /** False when there was no such session. */
  close(id: string): Promise<boolean>;
  /**
   * The client's answer to a relayed request, kept for whichever isolate or instance holds the
   * request it answers (the answer arrives as a POST of its own, anywhere).
   */
  putAnswer(id: string, requestId: string, answer: RelayedAnswer): Promise<void>;
  /** The answer, once and then gone; null while the client has not answered. */
  takeAnswer(id: string, requestId: string): Promise<RelayedAnswer | null>;
  /** Keeps event `index` of stream `streamId` (SEP-1699 resumability) for EVENT_TTL_MS. */
  putEvent(id: string, streamId: string, index: number, event: StoredEvent): Promise<void>;
  /** The kept events after `index`, in order, up to the first one missing (at most 32). */
  eventsAfter(id: string, streamId: string, index: number): Promise<Array<StoredEvent & { index: number }>>;
}

/** How long a stream's events stay for a client to resume it. */
const EVENT_TTL_MS = 10 * 60_000;
const EVENTS_PER_READ = 32;

/** How long an answer nobody took stays (the request it answered has given up by then). */
const ANSWER_TTL_MS = 10 * 60_000;

export const MCP_SESSION_PREFIX = 'sluice:mcp:session:';

const SESSION_ID = /^[0-9a-f-]{36}$/;

/** `idleMs`: the session lifetime without a request (setting general.mcp_session_idle_seconds). */
export function createRedisSessionStore(
  redis: Pick<RedisPort, 'get' | 'set' | 'del' | 'pexpire' | 'mget'>,
  idleMs: () => Promise<number>,
): McpSessionStore {
  const key = (id: string) => `${MCP_SESSION_PREFIX}${id}`;
  const answerKey = (id: string, requestId: string) => `${MCP_SESSION_PREFIX}${id}:answer:${requestId}`;
  const eventKey = (id: string, streamId: string, index: number) =>
    `${MCP_SESSION_PREFIX}${id}:event:${streamId}:${index}`;
  return {
    async create(record) {
      const id = crypto.randomUUID();
      await redis.set(key(id), JSON.stringify(record), { px: await idleMs() });
      return id;
    },
    async open(id) {
      if (!SESSION_ID.test(id)) return null;
      const stored = await redis.get<McpSessionRecord | string>(key(id));
      if (stored === null || stored === undefined) return null;
      await redis.pexpire(key(id), await idleMs());
      return typeof stored === 'string' ? (JSON.parse(stored) as McpSessionRecord) : stored;
    },
    async save(id, record) {
      await redis.set(key(id), JSON.stringify(record), { px: await idleMs() });
    },
    async close(id) {
      if (!SESSION_ID.test(id)) return false;
      return (await redis.del(key(id))) > 0;
    },
    async putAnswer(id, requestId, answer) {
      await redis.set(answerKey(id, requestId), JSON.stringify(answer), { px: ANSWER_TTL_MS });
    },
    async takeAnswer(id, requestId) {
      const stored = await redis.get<RelayedAnswer | string>(answerKey(id, requestId));
      if (stored === null || stored === undefined) return null;
      await redis.del(answerKey(id, requestId));
      return typeof stored === 'string' ? (JSON.parse(stored) as RelayedAnswer) : stored;
    },
    async putEvent(id, streamId, index, event) {
      await redis.set(eventKey(id, streamId, index), JSON.stringify(event), { px: EVENT_TTL_MS });
    },
    async eventsAfter(id, streamId, index) {
      const keys = Array.from({ length: EVENTS_PER_READ }, (_, i) => eventKey(id, streamId, index + 1 + i));
      const stored = await redis.mget<Array<StoredEvent | string | null>>(...keys);
      const events: Array<StoredEvent & { index: number }> = [];
      for (const [i, value] of stored.entries()) {
        if (value === null || value === undefined) break;
        const event = typeof value === 'string' ? (JSON.parse(value) as StoredEvent) : value;
        events.push({ ...event, index: index + 1 + i });
      }
      return events;
    },
  };
}
