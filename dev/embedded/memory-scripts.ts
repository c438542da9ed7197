import { createHash } from 'node:crypto';
import { RedisCommandError, type RedisReply, toRedisReply } from '../../self-host/bridge/redis-reply';

/**
 * Redis's script cache for the in-memory store. ioredis-mock runs Lua (fengari) for EVAL and
 * EVALSHA but has no SCRIPT command at all, so SCRIPT LOAD / EXISTS / FLUSH and the SHA-1 →
 * script lookup behind EVALSHA live here, with Redis's replies and error texts.
 */
export interface ScriptCache {
  /** SCRIPT <subcommand> ...: LOAD, EXISTS and FLUSH. */
  script(args: readonly string[]): RedisReply;
  /**
   * Resolves EVAL / EVALSHA arguments to the script source and the `numkeys key... arg...`
   * tail, remembering EVAL'd scripts as Redis does (so a later EVALSHA finds them).
   */
  resolve(name: 'eval' | 'evalsha', args: readonly string[]): { source: string; tail: string[] };
}

export const NOSCRIPT = 'NOSCRIPT No matching script. Please use EVAL.';

export function sha1Hex(source: string): string {
  return createHash('sha1').update(source, 'utf8').digest('hex');
}

export function createScriptCache(): ScriptCache {
  const scripts = new Map<string, string>();
  const remember = (source: string): string => {
    const sha = sha1Hex(source);
    scripts.set(sha, source);
    return sha;
  };

  return {
    script(args) {
      const [sub = '', ...rest] = args;
      switch (sub.toLowerCase()) {
        case 'load':
          if (rest.length !== 1) throw wrongArity('script|load');
          return Buffer.from(remember(rest[0]!));
        case 'exists':
          if (rest.length === 0) throw wrongArity('script|exists');
          return rest.map((sha) => (scripts.has(sha.toLowerCase()) ? 1 : 0));
        case 'flush':
          scripts.clear();
          return Buffer.from('OK');
        default:
          throw new RedisCommandError(`ERR unknown subcommand '${sub}'. Try SCRIPT HELP.`);
      }
    },
    resolve(name, args) {
      const [head, ...tail] = args;
      if (head === undefined || tail.length === 0) throw wrongArity(name);
      checkNumKeys(tail);
      if (name === 'eval') {
        remember(head);
        return { source: head, tail };
      }
      const source = scripts.get(head.toLowerCase());
      if (source === undefined) throw new RedisCommandError(NOSCRIPT);
      return { source, tail };
    },
  };
}

function wrongArity(command: string): RedisCommandError {
  return new RedisCommandError(`ERR wrong number of arguments for '${command}' command`);
}

/** The mock does not validate numkeys; Redis refuses a bad one before running anything. */
function checkNumKeys(tail: readonly string[]): void {
  const numKeys = /^-?\d+$/.test(tail[0] ?? '') ? Number(tail[0]) : Number.NaN;
  if (!Number.isSafeInteger(numKeys))
    throw new RedisCommandError('ERR value is not an integer or out of range');
  if (numKeys < 0) throw new RedisCommandError("ERR Number of keys can't be negative");
  if (numKeys > tail.length - 1) {
    throw new RedisCommandError("ERR Number of keys can't be greater than number of args");
  }
}

/**
 * Applies Redis's Lua → RESP conversion, which the mock skips: numbers are truncated to
 * integers, true becomes 1, false and nil become nil (the mock returns false / undefined).
 */
export function luaToReply(value: unknown): RedisReply {
  if (typeof value === 'number') return Math.trunc(value);
  if (value === true) return 1;
  if (value === false || value === undefined) return null;
  if (Array.isArray(value)) return value.map(luaToReply);
  return toRedisReply(value);
}

const MOCK_LUA_ERROR = /^Error trying to loading or executing lua code string in VM: /;

/** Rewords the mock's Lua failures the way Redis reports script errors. */
export function scriptError(error: unknown): unknown {
  if (error instanceof Error && MOCK_LUA_ERROR.test(error.message)) {
    return new RedisCommandError(`ERR Error running script: ${error.message.replace(MOCK_LUA_ERROR, '')}`);
  }
  return error;
}
