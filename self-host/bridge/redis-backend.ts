import { Redis } from 'ioredis';
import { type RedisReply, toCommandError, toRedisReply } from './redis-reply';

export { RedisCommandError, type RedisReply } from './redis-reply';

/** A command as Redis receives it: name first, then arguments. */
export type RedisCommand = readonly string[];

/** What the Upstash bridge needs from a Redis: run commands, run a transaction, close. */
export interface RedisBackend {
  /**
   * Runs one command. Rejects with RedisCommandError when Redis answers with an error (other
   * rejections mean Redis could not be reached). Calls are sent in the order they are made,
   * so firing several without awaiting pipelines them without reordering.
   */
  call(command: RedisCommand): Promise<RedisReply>;
  /**
   * Runs the commands atomically (MULTI/EXEC): one reply per command, where a command that
   * failed at run time holds its RedisCommandError and the others still apply, as in Redis.
   * Rejects with RedisCommandError when Redis refuses the whole transaction (EXECABORT).
   */
  transaction(commands: readonly RedisCommand[]): Promise<RedisReply[]>;
  close(): Promise<void>;
}

/** ioredis marks errors Redis itself sent with this name; anything else is transport trouble. */
function isReplyError(error: unknown): boolean {
  return error instanceof Error && error.name === 'ReplyError';
}

function rethrow(error: unknown): never {
  throw isReplyError(error) ? toCommandError(error) : error;
}

/**
 * The command name is sent upper-case on purpose: ioredis looks up its reply transformers by
 * the lower-case name, so this skips e.g. HGETALL's object conversion and keeps raw replies.
 */
function split(command: RedisCommand): [string, string[]] {
  const [name, ...args] = command;
  if (name === undefined) throw toCommandError('ERR empty command');
  return [name.toUpperCase(), args];
}

/** A real Redis over one ioredis connection; `url` is a redis:// URL (its path selects the db). */
export function createIoredisBackend(url: string): RedisBackend {
  const client = new Redis(url, {
    // Fail a request after one reconnect attempt instead of queueing it for ~20: the REST
    // client on the other side has its own timeout and health checks want a quick answer.
    maxRetriesPerRequest: 1,
  });
  // Without a listener ioredis logs every reconnect failure as unhandled; failures still
  // reach callers through the rejected commands.
  client.on('error', () => {});

  return {
    async call(command) {
      const [name, args] = split(command);
      const reply = await client.callBuffer(name, args).catch(rethrow);
      return toRedisReply(reply);
    },
    async transaction(commands) {
      const parts = commands.map(split);
      const multi = client.multi();
      for (const [name, args] of parts) multi.callBuffer(name, args);
      const results = await multi.exec().catch(rethrow);
      // exec() yields null only when a WATCHed key changed; the bridge never sends WATCH.
      if (results === null) throw toCommandError('EXECABORT Transaction discarded');
      return results.map(([error, reply]) => (error ? toCommandError(error) : toRedisReply(reply)));
    },
    async close() {
      await client.quit().catch(() => client.disconnect());
    },
  };
}
