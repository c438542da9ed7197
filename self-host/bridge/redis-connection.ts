import { encodeCommandText, parseRedisUrl } from '@sluice/shared/stores';
import type { RedisBackend, RedisCommand, RedisReply } from './redis-backend';
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

const MAX_RETRY_DELAY_MS = 2_000;

/**
 * One multiplexed RESP2 connection, the bridge's Redis client: a whole HTTP request's commands
 * go out in one write and come back as one array, with no per-command objects or promises
 * (ioredis spent more CPU per command than the HTTP request around it). One connection is enough: Redis runs
 * commands one at a time, and pipelining keeps the socket busy. When the connection fails,
 * in-flight commands fail at once; new ones fail fast until a retry is due (100 ms doubling to
 * 2 s), then the next command reconnects.
 */
export function createRedisConnection(
  options: RedisConnectionOptions,
): Required<Pick<RedisBackend, 'pipelineEncoded'>> & RedisBackend {
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
    // Redis would answer `*0` with nothing, and every later reply would go to the wrong batch.
    if (commands.some((command) => command.length === 0)) {
      return Promise.reject(new Error('ERR empty command'));
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
    async close() {
      closed = true;
      await session?.end();
      session = null;
    },
  };
}
