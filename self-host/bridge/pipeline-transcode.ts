import { isUtf8 } from 'node:buffer';
import { refusal } from './upstash-policy';

/** A pipeline body turned into Redis's request form: the bytes to write and the command count. */
export interface TranscodedPipeline {
  resp: Buffer;
  count: number;
}

/**
 * An Upstash pipeline body (`[["evalsha","…",2,"k1",…],…]`) straight from its JSON bytes to
 * RESP bytes, without a JS string per argument. Parsing the JSON and building the RESP text
 * argument by argument was a fifth of the store bridge's CPU (a gateway's admission batch is
 * ~2 KB and ~100 arguments per request).
 *
 * Only the plain shape is taken: arrays of strings without escapes, integers of at most 15
 * digits (their text is what String(number) gives) and booleans, no whitespace, commands the
 * bridge lets through (upstash-policy.ts). For anything else it answers null, and the bridge
 * takes the general path, which also words every error (upstash-request.ts).
 */
export function transcodePipeline(body: Buffer): TranscodedPipeline | null {
  // Bytes pass through as they are: the general path would turn invalid UTF-8 into U+FFFD.
  if (!isUtf8(body)) return null;
  const args = scanPipeline(body);
  if (args === null) return null;
  const resp = Buffer.allocUnsafe(respSize(args));
  let at = 0;
  for (let i = 0; i < args.length; ) {
    const count = args[i++] as number;
    at = writeHeader(resp, at, 42 /* * */, count);
    for (let end = i + 2 * count; i < end; i += 2) {
      const start = args[i] as number;
      const stop = args[i + 1] as number;
      at = writeHeader(resp, at, 36 /* $ */, stop - start);
      if (stop - start >= NATIVE_COPY_FROM) {
        at += body.copy(resp, at, start, stop);
      } else {
        for (let j = start; j < stop; j++) resp[at++] = body[j] as number;
      }
      resp[at++] = 13;
      resp[at++] = 10;
    }
  }
  return { resp, count: countCommands(args) };
}

/** Longer arguments (keys, script hashes) are copied natively, shorter ones byte by byte. */
const NATIVE_COPY_FROM = 24;

/**
 * The pipeline's layout, flat: per command its argument count, then each argument's start and
 * end offsets in `body` (quotes excluded). Null when the body is not of the plain shape.
 */
function scanPipeline(body: Uint8Array): number[] | null {
  const out: number[] = [];
  const last = body.length - 1;
  if (body[0] !== 91 /* [ */ || body[last] !== 93 /* ] */) return null;
  let at = 1;
  for (;;) {
    at = scanCommand(body, at, out);
    if (at < 0) return null;
    if (at === last) return out.length > 0 ? out : null;
    if (body[at] !== 44 /* , */) return null;
    at++;
  }
}

/** One command from `[` to past its `]`; -1 when it is not plain or may not run. */
function scanCommand(body: Uint8Array, from: number, out: number[]): number {
  if (body[from] !== 91 /* [ */) return -1;
  const countAt = out.push(0) - 1;
  let at = from + 1;
  let count = 0;
  for (;;) {
    const end = scanValue(body, at);
    if (end < 0) return -1;
    const quoted = body[at] === 34;
    out.push(quoted ? at + 1 : at, quoted ? end - 1 : end);
    count++;
    at = end;
    if (body[at] === 93 /* ] */) break;
    if (body[at] !== 44 /* , */) return -1;
    at++;
  }
  out[countAt] = count;
  // Refused commands, XREAD (whose refusal looks at every argument) and names that are not
  // ASCII (Unicode lower-casing) go the general way.
  const name = asciiText(body, out[countAt + 1] as number, out[countAt + 2] as number);
  if (name === null) return -1;
  const lower = name.toLowerCase();
  if (lower.startsWith('xread') || refusal([lower]) !== null) return -1;
  return at + 1;
}

function asciiText(body: Uint8Array, start: number, end: number): string | null {
  let text = '';
  for (let i = start; i < end; i++) {
    const byte = body[i] as number;
    if (byte >= 128) return null;
    text += String.fromCharCode(byte);
  }
  return text;
}

/** Past the end of a string, integer or boolean starting at `at`; -1 for anything else. */
function scanValue(body: Uint8Array, at: number): number {
  const first = body[at];
  if (first === 34 /* " */) {
    for (let i = at + 1; i < body.length; i++) {
      const byte = body[i] as number;
      if (byte > 34 && byte !== 92) continue;
      if (byte === 34) return i + 1;
      // Escapes are the general path's; a raw control character is not JSON.
      if (byte === 92 || byte < 32) return -1;
    }
    return -1;
  }
  if (first === 116 /* t */) return matches(body, at, TRUE) ? at + 4 : -1;
  if (first === 102 /* f */) return matches(body, at, FALSE) ? at + 5 : -1;
  return scanInteger(body, at);
}

const TRUE = [116, 114, 117, 101];
const FALSE = [102, 97, 108, 115, 101];

function matches(body: Uint8Array, at: number, word: readonly number[]): boolean {
  for (let i = 0; i < word.length; i++) if (body[at + i] !== word[i]) return false;
  return true;
}

/** `-?(0|[1-9][0-9]*)` of at most 15 digits, followed by `,` or `]`. */
function scanInteger(body: Uint8Array, at: number): number {
  let i = body[at] === 45 /* - */ ? at + 1 : at;
  const digitsFrom = i;
  while (i < body.length && (body[i] as number) >= 48 && (body[i] as number) <= 57) i++;
  const digits = i - digitsFrom;
  if (digits === 0 || digits > 15) return -1;
  if (digits > 1 && body[digitsFrom] === 48) return -1;
  // "-0" is "0" once a number; leave it to the general path.
  if (digits === 1 && body[digitsFrom] === 48 && digitsFrom > at) return -1;
  return body[i] === 44 || body[i] === 93 ? i : -1;
}

function respSize(args: readonly number[]): number {
  let size = 0;
  for (let i = 0; i < args.length; ) {
    const count = args[i++] as number;
    size += 3 + digitCount(count);
    for (let end = i + 2 * count; i < end; i += 2) {
      const length = (args[i + 1] as number) - (args[i] as number);
      size += 5 + digitCount(length) + length;
    }
  }
  return size;
}

function countCommands(args: readonly number[]): number {
  let commands = 0;
  for (let i = 0; i < args.length; i += 1 + 2 * (args[i] as number)) commands++;
  return commands;
}

function digitCount(value: number): number {
  if (value < 10) return 1;
  if (value < 100) return 2;
  if (value < 1000) return 3;
  return String(value).length;
}

/** `<type><value>\r\n`: `*3\r\n`, `$12\r\n`. */
function writeHeader(out: Buffer, at: number, type: number, value: number): number {
  out[at++] = type;
  if (value < 10) {
    out[at++] = 48 + value;
  } else if (value < 100) {
    out[at++] = 48 + ((value / 10) | 0);
    out[at++] = 48 + (value % 10);
  } else {
    at += out.write(String(value), at, 'latin1');
  }
  out[at++] = 13;
  out[at++] = 10;
  return at;
}
