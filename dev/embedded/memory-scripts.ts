import { createHash } from 'node:crypto';
import type { RedisReply } from '../../self-host/bridge/redis-backend';
import { asItem, StoreCommandError, toRedisReply } from './memory-replies';

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
          throw new StoreCommandError(`ERR unknown subcommand '${sub}'. Try SCRIPT HELP.`);
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
      if (source === undefined) throw new StoreCommandError(NOSCRIPT);
      return { source, tail };
    },
  };
}

function wrongArity(command: string): StoreCommandError {
  return new StoreCommandError(`ERR wrong number of arguments for '${command}' command`);
}

/** The mock does not validate numkeys; Redis refuses a bad one before running anything. */
function checkNumKeys(tail: readonly string[]): void {
  const numKeys = /^-?\d+$/.test(tail[0] ?? '') ? Number(tail[0]) : Number.NaN;
  if (!Number.isSafeInteger(numKeys))
    throw new StoreCommandError('ERR value is not an integer or out of range');
  if (numKeys < 0) throw new StoreCommandError("ERR Number of keys can't be negative");
  if (numKeys > tail.length - 1) {
    throw new StoreCommandError("ERR Number of keys can't be greater than number of args");
  }
}

/*
 * Two gaps of the mock's Lua, closed by running every script inside this prelude:
 * - A table comes back as an array only when its items sit in the table's array part, which a
 *   table constructor fills ({1, 'a'}) but assignments (t[1] = 1, t[#t + 1] = v, table.insert)
 *   do not: such a table came back as a dead interop proxy (a JS function), and every script
 *   that builds its reply step by step failed ("unsupported reply type function"). The reply is
 *   rebuilt with constructors ({unpack(...)}); like Redis, an array reply stops at its first nil.
 * - redis.call answers an array reply with a JS array (userdata) whose missing values are JS
 *   null, which Lua sees as truthy ("x or ''" kept it): arrays become Lua tables with Redis's
 *   false for a missing value, as in Redis.
 */
const ARRAY_REPLIES_PRELUDE = `local __sluice_unpack = table.unpack or unpack
local function __sluice_array(value)
  if type(value) ~= 'table' then return value end
  local items, n = {}, 0
  while value[n + 1] ~= nil do
    n = n + 1
    items[n] = __sluice_array(value[n])
  end
  return {__sluice_unpack(items, 1, n)}
end
local function __sluice_from_js(value)
  if type(value) ~= 'userdata' then return value end
  if tostring(value) == 'null' then return false end
  local items = {}
  for i = 1, #value do items[i] = __sluice_from_js(value[i]) end
  return items
end
local __sluice_call, __sluice_pcall = redis.call, redis.pcall
redis.call = function(...) return __sluice_from_js(__sluice_call(...)) end
redis.pcall = function(...) return __sluice_from_js(__sluice_pcall(...)) end
return __sluice_array((function()
`;

/** The script as the mock should run it: its reply rebuilt so that every table is an array. */
export function withArrayReplies(source: string): string {
  return `${ARRAY_REPLIES_PRELUDE}${source}
end)())`;
}

/**
 * Applies Redis's Lua → RESP conversion, which the mock skips: numbers are truncated to
 * integers, true becomes 1, false and nil become nil (the mock returns false / undefined).
 */
export function luaToReply(value: unknown): RedisReply {
  if (typeof value === 'number') return Math.trunc(value);
  if (value === true) return 1;
  if (value === false || value === undefined) return null;
  if (Array.isArray(value)) return value.map((item) => asItem(luaToReply(item)));
  return toRedisReply(value);
}

const MOCK_LUA_ERROR = /^Error trying to loading or executing lua code string in VM: /;

/** Rewords the mock's Lua failures the way Redis reports script errors. */
export function scriptError(error: unknown): unknown {
  if (error instanceof Error && MOCK_LUA_ERROR.test(error.message)) {
    return new StoreCommandError(`ERR Error running script: ${error.message.replace(MOCK_LUA_ERROR, '')}`);
  }
  return error;
}
