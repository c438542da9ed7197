import { RespError } from '@sluice/shared/stores';
import type { RedisReply } from '../../self-host/bridge/redis-backend';

/** The in-memory store refusing a command; `message` is Redis's text for the same refusal. */
export class StoreCommandError extends Error {
  override readonly name = 'StoreCommandError';
}

/** `ERR`, `NOSCRIPT`, `WRONGTYPE`, `EXECABORT`...: the upper-case code Redis errors start with. */
const ERROR_CODE = /^[A-Z][A-Z_-]*\b/;

/**
 * A failure of the store as the error reply Redis would give. Messages without a Redis error
 * code (ioredis-mock's own wording) get `ERR ` so clients parsing the code still work.
 */
export function toRespError(error: unknown): RespError {
  const message = error instanceof Error ? error.message : String(error);
  return new RespError(ERROR_CODE.test(message) ? message : `ERR ${message}`);
}

/**
 * What ioredis-mock answered, in the shapes real Redis gives the bridge (shared/src/stores/resp):
 * strings as bytes, integers, null, arrays. The mock also answers with JS floats, booleans, NaN,
 * `undefined` and objects (HGETALL), which are turned into what Redis would have sent.
 */
export function toRedisReply(value: unknown): RedisReply {
  if (value instanceof Error) return toRespError(value);
  return toValue(value);
}

/** A reply inside an array: an error there reaches clients as its text, as from Redis. */
export function asItem(reply: RedisReply): Exclude<RedisReply, RespError> {
  return reply instanceof RespError ? Buffer.from(reply.message) : reply;
}

function toValue(value: unknown): Exclude<RedisReply, RespError> {
  if (value === null || value === undefined) return null;
  if (Buffer.isBuffer(value)) return value;
  if (typeof value === 'string') return Buffer.from(value);
  if (typeof value === 'number') return numberReply(value);
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (Array.isArray(value)) return value.map(toValue);
  if (value instanceof Error) return asItem(toRespError(value));
  if (typeof value === 'object') {
    // ioredis-mock answers HGETALL with an object; Redis sends the flat field/value list.
    return Object.entries(value).flatMap(([key, item]) => [Buffer.from(key), toValue(item)]);
  }
  throw new StoreCommandError(`ERR unsupported reply type ${typeof value}`);
}

function numberReply(value: number): number | Buffer {
  // The mock's INCR on a non-integer yields NaN where Redis refuses the command.
  if (!Number.isFinite(value)) throw new StoreCommandError('ERR value is not an integer or out of range');
  // The mock's INCRBYFLOAT & co. return JS floats; Redis sends those as bulk strings.
  return Number.isInteger(value) ? value : Buffer.from(String(value));
}
