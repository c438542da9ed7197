/** A command as Redis receives it: name first, then arguments. */
export type RedisCommand = readonly string[];

/**
 * The value shapes a RedisBackend hands back, independent of the driver behind it.
 * Bulk and status strings are Buffers (binary-safe; the HTTP layer decides how to encode them),
 * integers are numbers, nil is null. An error nested inside an array (a Lua script returning
 * `{1, redis.error_reply('...')}`, or one slot of MULTI/EXEC) is a RedisCommandError value.
 */
export type RedisReply = Buffer | number | null | RedisCommandError | RedisReply[];

/** Redis answered with an error; `message` is the error text exactly as Redis sent it. */
export class RedisCommandError extends Error {
  override readonly name = 'RedisCommandError';
}

/** `ERR`, `NOSCRIPT`, `WRONGTYPE`, `EXECABORT`...: the upper-case code Redis errors start with. */
const ERROR_CODE = /^[A-Z][A-Z_-]*\b/;

/**
 * Turns a driver's error into a RedisCommandError. Messages without a Redis error code (the
 * in-memory store's own wording) get `ERR ` so clients parsing the code still work.
 */
export function toCommandError(error: unknown): RedisCommandError {
  if (error instanceof RedisCommandError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new RedisCommandError(ERROR_CODE.test(message) ? message : `ERR ${message}`);
}

/**
 * Normalises whatever a driver returned into a RedisReply. Real Redis (RESP2) only produces
 * Buffers, integers, null, arrays and nested errors; the other branches exist for ioredis-mock,
 * which answers with JS strings, floats, booleans, NaN, `undefined` and objects (HGETALL).
 */
export function toRedisReply(value: unknown): RedisReply {
  if (value === null || value === undefined) return null;
  if (Buffer.isBuffer(value)) return value;
  if (typeof value === 'string') return Buffer.from(value);
  if (typeof value === 'number') return numberReply(value);
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (Array.isArray(value)) return value.map(toRedisReply);
  if (value instanceof Error) return toCommandError(value);
  if (typeof value === 'object') {
    // ioredis-mock answers HGETALL with an object; Redis sends the flat field/value list.
    return Object.entries(value).flatMap(([key, item]) => [Buffer.from(key), toRedisReply(item)]);
  }
  throw new RedisCommandError(`ERR unsupported reply type ${typeof value}`);
}

function numberReply(value: number): RedisReply {
  // The mock's INCR on a non-integer yields NaN where Redis refuses the command.
  if (!Number.isFinite(value)) throw new RedisCommandError('ERR value is not an integer or out of range');
  // The mock's INCRBYFLOAT & co. return JS floats; Redis sends those as bulk strings.
  return Number.isInteger(value) ? value : Buffer.from(String(value));
}
