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

/** One script call: EVALSHA on the hot path, EVAL only when Redis has not seen the script. */
export interface ScriptCall {
  script: LuaScript;
  keys: readonly string[];
  args: readonly (string | number)[];
}

/** Runs one script call: on its own round trip, or in a shared one (script-pipeline.ts). */
export type ScriptRun = (call: ScriptCall) => Promise<unknown>;

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

/** Each call on its own round trip (the console, and paths that share nothing). */
export function directScripts(redis: Pick<RedisPort, 'eval' | 'evalsha'>): ScriptRun {
  return (call) => runScript(redis, call.script, [...call.keys], [...call.args]);
}
