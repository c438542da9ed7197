import { randomUUID } from 'node:crypto';
import RedisMock from 'ioredis-mock';
import type { RedisBackend, RedisCommand, RedisReply } from '../../self-host/bridge/redis-backend';
import { counterGuard } from './memory-guards';
import { StoreCommandError, toRedisReply, toRespError } from './memory-replies';
import { createScriptCache, luaToReply, scriptError, withArrayReplies } from './memory-scripts';

/*
 * The embedded, single-process store for a first trial: ioredis-mock (8.x) with its Lua run
 * by fengari. Known gaps against Redis 7, checked against the installed version:
 * - Lua: no cjson, cmsgpack, bit or struct libraries; no redis.sha1hex, redis.error_reply,
 *   redis.status_reply, redis.setresp; an error raised by redis.call inside a script loses its
 *   text ("Error running script: null"); redis.pcall yields the error as a plain string, not
 *   an {err=...} table; returning {err=...}/{ok=...} tables crashes. Tables filled after
 *   creation, arrays with nil holes and redis.call's array replies (JS null for a missing
 *   value) are made Redis-like by a prelude every script runs in (memory-scripts). Reply
 *   conversion (floats truncated, true → 1, false/nil → nil) is redone in memory-scripts too.
 *   The Redis-port contract suites run on this store in CI (vitest project `embedded`).
 * - SCRIPT is missing entirely: LOAD/EXISTS/FLUSH and EVALSHA's lookup (with Redis's NOSCRIPT
 *   error) are provided by memory-scripts; EVAL_RO/EVALSHA_RO run as EVAL/EVALSHA.
 * - Option keywords are case-sensitive for SET and ZADD (the Upstash client sends `ex`, `nx`...):
 *   they are upper-cased below. SET KEEPTTL, EXPIRE NX/XX/GT/LT and ZADD GT/LT are ignored or
 *   refused; ZADD INCR returns 0 instead of the new score; SCAN TYPE is refused.
 * - INCR & co. on a non-integer answer NaN and overwrite the value with "NaN": memory-guards
 *   refuses them first, but not when called from Lua (redis.call('INCR') still corrupts).
 *   Missing arguments are not checked (GET with no key answers nil); other wrong-type errors
 *   have the mock's wording, prefixed with ERR.
 * - Missing commands (ZUNIONSTORE, blocking pops, streams groups...) answer "ERR unknown command".
 */

/** ioredis-mock calls, looked up by name: it has no generic `call`/`callBuffer`. */
type MockMethods = Record<string, unknown>;

const UNSUPPORTED = /^Unsupported command/;

export function createMemoryBackend(): RedisBackend {
  // ioredis-mock shares one dataset between instances with the same host:port/db, so each
  // backend gets a host of its own and never sees another backend's keys.
  const mock = new RedisMock({ host: `embedded-memory-${randomUUID()}` });
  const methods = mock as unknown as MockMethods;
  const scripts = createScriptCache();

  function invoke(name: string, args: readonly string[]): Promise<unknown> {
    // Only Redis commands have a `<name>Buffer` variant, so EventEmitter and other helper
    // methods of the mock can never be reached through a command name.
    const method = /^[a-z][a-z0-9_.-]*$/.test(name) ? methods[`${name}Buffer`] : undefined;
    if (typeof method !== 'function') return Promise.reject(unknownCommand(name));
    const refused = counterGuard(methods.data, name, args);
    if (refused) return Promise.reject(refused);
    try {
      return Promise.resolve(Reflect.apply(method, mock, normaliseArgs(name, args)));
    } catch (error) {
      // The mock's placeholders for commands it lacks throw synchronously.
      return Promise.reject(
        error instanceof Error && UNSUPPORTED.test(error.message) ? unknownCommand(name) : error,
      );
    }
  }

  /**
   * Starts the command before returning: ioredis-mock executes a command synchronously when
   * it is invoked, which keeps calls in order.
   */
  function run(command: RedisCommand): Promise<RedisReply> {
    try {
      const [rawName = '', ...args] = command;
      const name = rawName.toLowerCase();
      if (name === 'script') return Promise.resolve(scripts.script(args));
      if (name === 'eval' || name === 'eval_ro' || name === 'evalsha' || name === 'evalsha_ro') {
        const { source, tail } = scripts.resolve(name.startsWith('evalsha') ? 'evalsha' : 'eval', args);
        return invoke('eval', [withArrayReplies(source), ...tail]).then(luaToReply, (error: unknown) =>
          Promise.reject(scriptError(error)),
        );
      }
      return invoke(name, args).then(toRedisReply);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * All commands are invoked in this one synchronous map, so no other request's command can run
   * between them. Every failure of the in-memory store is the store answering (an error reply in
   * the command's slot), never a transport problem.
   */
  const runAll = async (commands: readonly RedisCommand[]): Promise<RedisReply[]> => {
    const settled = await Promise.allSettled(commands.map(run));
    return settled.map((outcome) =>
      outcome.status === 'fulfilled' ? outcome.value : toRespError(outcome.reason),
    );
  };

  return {
    pipeline: runAll,
    async close() {
      await mock.flushall();
      mock.disconnect();
    },
  };
}

function unknownCommand(name: string): StoreCommandError {
  return new StoreCommandError(
    `ERR unknown command '${name}' (not supported by the in-memory store; set REDIS_URL to use a real Redis)`,
  );
}

const ZADD_FLAGS = /^(nx|xx|gt|lt|ch|incr)$/i;

/** The mock only recognises upper-case option keywords for SET and ZADD. */
function normaliseArgs(name: string, args: readonly string[]): string[] {
  if (name === 'set') {
    // After key and value SET takes only keywords and numbers, so upper-casing is safe.
    return args.map((arg, index) => (index >= 2 ? arg.toUpperCase() : arg));
  }
  if (name === 'zadd') {
    let index = 1;
    while (index < args.length && ZADD_FLAGS.test(args[index]!)) index += 1;
    return args.map((arg, i) => (i >= 1 && i < index ? arg.toUpperCase() : arg));
  }
  return [...args];
}
