import type { RedisPort } from './redis-port';

/**
 * A Lua script with its SHA-1 written beside it (checked against SCRIPT LOAD in a test),
 * so the hot path sends EVALSHA and only falls back to EVAL when the server lacks it.
 */
export interface LuaScript {
  readonly name: string;
  readonly source: string;
  readonly sha1: string;
}

export async function runScript<T>(
  redis: Pick<RedisPort, 'eval' | 'evalsha'>,
  script: LuaScript,
  keys: string[],
  args: (string | number)[],
): Promise<T> {
  const argv = args.map(String);
  try {
    return (await redis.evalsha(script.sha1, keys, argv)) as T;
  } catch (error) {
    if (!String((error as Error)?.message ?? error).includes('NOSCRIPT')) throw error;
    return (await redis.eval(script.source, keys, argv)) as T;
  }
}
