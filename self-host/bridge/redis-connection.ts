import { parseRedisUrl } from '@sluice/shared/stores/redis-url';
import { encodeCommandText } from '@sluice/shared/stores/resp/resp-codec';
import { type RedisCommand, RedisCommandError, type RedisReply } from './redis-reply';
import { type Batch, openSession, RedisUnavailableError, type Session } from './redis-session';

export { RedisUnavailableError } from './redis-session';

export interface RedisConnectionOptions {
  /** `redis://` or `rediss://` URL; its path selects the database. */
  url: string;
  /** Give up a connection attempt (TCP, TLS) after this long. Default 5 s. */
  connectTimeoutMs?: number;
  /**
   * A batch unanswered for this long means Redis is stuck or the link is dead: the connection
   * is dropped (failing everything in flight) and the next command opens a new one. Default 5 s.
   */
  commandTimeoutMs?: number;
}

/** One multiplexed RESP2 connection: every request's commands are pipelined on it. */
export interface RedisConnection {
  /** One reply per command, in order; a command Redis refused holds its RedisCommandError. */
  pipeline(commands: readonly RedisCommand[]): Promise<RedisReply[]>;
  /** The same for `count` commands already in RESP's request form (pipeline-transcode.ts). */
  pipelineEncoded(payload: Buffer, count: number): Promise<RedisReply[]>;
  /** MULTI … EXEC in one write; rejects with RedisCommandError when Redis discards it (EXECABORT). */
  transaction(commands: readonly RedisCommand[]): Promise<RedisReply[]>;
  close(): Promise<void>;
}

const MAX_RETRY_DELAY_MS = 2_000;

/**
 * A lean Redis client for the bridge's hot path: a whole HTTP request's commands go out in one
 * write and come back as one array, with no per-command objects or promises (ioredis spent more
 * CPU per command than the HTTP request around it). One connection is enough: Redis runs
 * commands one at a time, and pipelining keeps the socket busy. When the connection fails,
 * in-flight commands fail at once; new ones fail fast until a retry is due (100 ms doubling to
 * 2 s), then the next command reconnects.
 */
export function createRedisConnection(options: RedisConnectionOptions): RedisConnection {
  const endpoint = parseRedisUrl(options.url);
  const timeouts = {
    connectMs: options.connectTimeoutMs ?? 5_000,
    commandMs: options.commandTimeoutMs ?? 5_000,
  };
  let session: Session | null = null;
  let closed = false;
  let failures = 0;
  let retryAt = 0;
  let lastError = '';

  function currentSession(): Session {
    if (closed) throw new RedisUnavailableError('the Redis connection is closed');
    if (session) return session;
    if (Date.now() < retryAt) throw new RedisUnavailableError(lastError);
    const opened: Session = openSession(endpoint, timeouts, {
      ready: () => {
        failures = 0;
      },
      gone: (error, wasReady) => {
        if (session === opened) session = null;
        if (wasReady) return;
        failures += 1;
        lastError = error.message;
        retryAt = Date.now() + Math.min(MAX_RETRY_DELAY_MS, 100 * 2 ** (failures - 1));
      },
    });
    session = opened;
    return opened;
  }

  function submit(commands: readonly RedisCommand[], replies: number): Promise<RedisReply[]> {
    if (commands.some((command) => command.length === 0)) {
      return Promise.reject(new RedisCommandError('ERR empty command'));
    }
    return submitEncoded(encodeCommandText(commands), replies);
  }

  function submitEncoded(payload: string | Buffer, replies: number): Promise<RedisReply[]> {
    return new Promise((resolve, reject) => {
      const batch: Batch = { remaining: replies, replies: [], deadline: 0, settle: resolve, fail: reject };
      try {
        currentSession().send(payload, batch);
      } catch (error) {
        reject(error);
      }
    });
  }

  return {
    pipeline: (commands) => submit(commands, commands.length),
    pipelineEncoded: (payload, count) => submitEncoded(payload, count),
    async transaction(commands) {
      // MULTI's OK, one QUEUED (or error) per command, then EXEC's own reply.
      const replies = await submit([['MULTI'], ...commands, ['EXEC']], commands.length + 2);
      const exec = replies[replies.length - 1];
      if (exec instanceof RedisCommandError) throw exec;
      // A null EXEC only follows a WATCHed key's change; the bridge never sends WATCH.
      if (!Array.isArray(exec)) throw new RedisCommandError('EXECABORT Transaction discarded');
      return exec;
    },
    async close() {
      closed = true;
      await session?.end();
      session = null;
    },
  };
}
