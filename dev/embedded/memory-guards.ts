import { StoreCommandError } from './memory-replies';

/**
 * Redis's argument checks for the counter commands, which ioredis-mock skips: there INCR on
 * "abc" answers NaN and overwrites the value with "NaN". Checked before the command runs, by
 * reading the mock's dataset synchronously so nothing can change in between.
 */

/** The part of ioredis-mock's internal dataset (`mock.data`) the guards read. */
interface MockData {
  get(key: string): unknown;
}

const INTEGER = /^-?(0|[1-9]\d{0,18})$/;
const NOT_INTEGER = 'ERR value is not an integer or out of range';
const NOT_FLOAT = 'ERR value is not a valid float';
const WRONGTYPE = 'WRONGTYPE Operation against a key holding the wrong kind of value';

const isInteger = (text: string): boolean =>
  INTEGER.test(text) && BigInt(text) <= 9223372036854775807n && BigInt(text) >= -9223372036854775808n;
const isFloat = (text: string): boolean =>
  text.trim() === text && text !== '' && Number.isFinite(Number(text));

function asText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  return Buffer.isBuffer(value) ? value.toString('utf8') : null;
}

/** The mock keeps a hash as a plain object; lists, sets and sorted sets are other classes. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function isMockData(value: unknown): value is MockData {
  return (
    typeof value === 'object' && value !== null && typeof (value as { get?: unknown }).get === 'function'
  );
}

/** Redis's error for the command, or null when it may run. */
export function counterGuard(
  dataset: unknown,
  name: string,
  args: readonly string[],
): StoreCommandError | null {
  const check = CHECKS[name];
  if (!check || !isMockData(dataset)) return null;
  const message = check(dataset, args);
  return message ? new StoreCommandError(message) : null;
}

type Check = (data: MockData, args: readonly string[]) => string | null;

/** A string key's current value must parse with `valid`; a non-string key is WRONGTYPE. */
function stringCounter(valid: (text: string) => boolean, invalid: string, hasIncrement: boolean): Check {
  return (data, [key = '', increment = '1']) => {
    if (hasIncrement && !valid(increment)) return invalid;
    const current = data.get(key);
    if (current === undefined) return null;
    const text = asText(current);
    if (text === null) return WRONGTYPE;
    return valid(text) ? null : invalid;
  };
}

/** The same for a hash field: HINCRBY / HINCRBYFLOAT. */
function hashCounter(valid: (text: string) => boolean, invalid: string, hashInvalid: string): Check {
  return (data, [key = '', field = '', increment = '']) => {
    if (!valid(increment)) return invalid;
    const hash = data.get(key);
    if (hash === undefined) return null;
    if (!isPlainObject(hash)) return WRONGTYPE;
    const current = Object.hasOwn(hash, field) ? hash[field] : undefined;
    if (current === undefined) return null;
    const text = asText(current);
    return text !== null && valid(text) ? null : hashInvalid;
  };
}

const CHECKS: Record<string, Check | undefined> = {
  incr: stringCounter(isInteger, NOT_INTEGER, false),
  decr: stringCounter(isInteger, NOT_INTEGER, false),
  incrby: stringCounter(isInteger, NOT_INTEGER, true),
  decrby: stringCounter(isInteger, NOT_INTEGER, true),
  incrbyfloat: stringCounter(isFloat, NOT_FLOAT, true),
  hincrby: hashCounter(isInteger, NOT_INTEGER, 'ERR hash value is not an integer'),
  hincrbyfloat: hashCounter(isFloat, NOT_FLOAT, 'ERR hash value is not a float'),
};
