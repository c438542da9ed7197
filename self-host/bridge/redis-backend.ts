import { RespError, type RespReply } from '@sluice/shared/stores';
import { createRedisConnection, type RedisConnectionOptions } from './redis-connection';

/** A command as Redis receives it: name first, then arguments. */
export type RedisCommand = readonly string[];

/**
 * A reply as the bridge passes it on (shared/src/stores/resp): strings as their bytes (the
 * HTTP layer sends them as base64 or text), integers, null, arrays, and an error reply as a
 * RespError in its command's slot (inside an array, as its text: a script's error table).
 */
export type RedisReply = RespReply<Buffer>;

/** What the Upstash bridge needs from a Redis: run commands, close. */
export interface RedisBackend {
  /**
   * Runs the commands in order, pipelined: one reply per command, where a command Redis
   * refused holds its RespError and the others still run. Rejects only when Redis could not
   * be reached.
   */
  pipeline(commands: readonly RedisCommand[]): Promise<RedisReply[]>;
  /**
   * As pipeline(), for `count` commands already in RESP's request form: a backend that speaks
   * RESP takes the bridge's transcoded pipelines (pipeline-transcode.ts) this way.
   */
  pipelineEncoded?(payload: Buffer, count: number): Promise<RedisReply[]>;
  close(): Promise<void>;
}

/** One command on its own: its reply, or an Error with Redis's text when Redis refused it. */
export async function runCommand(
  backend: RedisBackend,
  command: RedisCommand,
): Promise<Exclude<RedisReply, RespError>> {
  const [reply = null] = await backend.pipeline([command]);
  if (reply instanceof RespError) throw new Error(reply.message);
  return reply;
}

export type RedisBackendOptions = Omit<RedisConnectionOptions, 'url'>;

/** A real Redis over one pipelined connection; `url` is a redis:// URL (its path selects the db). */
export function createRedisBackend(url: string, options: RedisBackendOptions = {}): RedisBackend {
  return createRedisConnection({ url, ...options });
}
