import { createRedisConnection, type RedisConnectionOptions } from './redis-connection';
import { type RedisCommand, RedisCommandError, type RedisReply } from './redis-reply';

export { type RedisCommand, RedisCommandError, type RedisReply } from './redis-reply';

/** What the Upstash bridge needs from a Redis: run commands, run a transaction, close. */
export interface RedisBackend {
  /**
   * Runs one command. Rejects with RedisCommandError when Redis answers with an error (other
   * rejections mean Redis could not be reached).
   */
  call(command: RedisCommand): Promise<RedisReply>;
  /**
   * Runs the commands in order, pipelined: one reply per command, where a command Redis
   * refused holds its RedisCommandError and the others still run. Rejects only when Redis
   * could not be reached.
   */
  pipeline(commands: readonly RedisCommand[]): Promise<RedisReply[]>;
  /**
   * As pipeline(), for `count` commands already in RESP's request form: a backend that speaks
   * RESP takes the bridge's transcoded pipelines (pipeline-transcode.ts) this way.
   */
  pipelineEncoded?(payload: Buffer, count: number): Promise<RedisReply[]>;
  /**
   * Runs the commands atomically (MULTI/EXEC): one reply per command, where a command that
   * failed at run time holds its RedisCommandError and the others still apply, as in Redis.
   * Rejects with RedisCommandError when Redis refuses the whole transaction (EXECABORT).
   */
  transaction(commands: readonly RedisCommand[]): Promise<RedisReply[]>;
  close(): Promise<void>;
}

export type RedisBackendOptions = Omit<RedisConnectionOptions, 'url'>;

/** A real Redis over one pipelined connection; `url` is a redis:// URL (its path selects the db). */
export function createRedisBackend(url: string, options: RedisBackendOptions = {}): RedisBackend {
  const connection = createRedisConnection({ url, ...options });
  return {
    async call(command) {
      const [reply = null] = await connection.pipeline([command]);
      if (reply instanceof RedisCommandError) throw reply;
      return reply;
    },
    pipeline: (commands) => connection.pipeline(commands),
    pipelineEncoded: (payload, count) => connection.pipelineEncoded(payload, count),
    transaction: (commands) => connection.transaction(commands),
    close: () => connection.close(),
  };
}
