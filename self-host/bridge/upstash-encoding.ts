import { RespError } from '@sluice/shared/stores';
import type { RedisReply } from './redis-backend';

/** A reply as it goes into the JSON body: strings, integers, null and arrays of those. */
export type JsonReply = string | number | null | JsonReply[];

/**
 * Renders a reply's value for the Upstash REST body. With `Upstash-Encoding: base64` (the
 * @upstash/redis default) every string at any depth is base64 of the raw bytes, which is how
 * binary values survive JSON; the client decodes each string back to UTF-8 text. Integers and
 * null are never encoded. Without it, strings are the bytes read as UTF-8. (An error inside an
 * array, from a Lua script, arrives as its text and is encoded like any other string.)
 */
export function encodeReply(reply: Exclude<RedisReply, RespError>, base64: boolean): JsonReply {
  if (reply === null || typeof reply === 'number') return reply;
  if (Array.isArray(reply)) return reply.map((item) => encodeReply(item, base64));
  return reply.toString(base64 ? 'base64' : 'utf8');
}

/** One entry of a /pipeline answer. */
export type CommandOutcome = { result: JsonReply } | { error: string };

export function outcomeOf(reply: RedisReply, base64: boolean): CommandOutcome {
  return reply instanceof RespError ? { error: reply.message } : { result: encodeReply(reply, base64) };
}
