/**
 * RESP2, the Redis wire protocol, on bytes: commands out, replies in. Runtime-neutral (Web
 * streams' Uint8Array chunks), so the same codec serves a workerd socket and a Node one.
 */

/**
 * A reply Redis gave: what the Upstash REST API gives for the same command, errors apart.
 * `S` is how a string arrives: text by default, or its bytes for a reader that passes replies
 * on without reading them (the store bridge).
 */
export type RespValue<S = string> = S | number | null | RespValue<S>[];

/** An error reply (`-ERR ...`): a value in a pipeline, not a failure of the round trip. */
export class RespError {
  constructor(readonly message: string) {}
}

export type RespReply<S = string> = RespValue<S> | RespError;

const encoder = new TextEncoder();

/**
 * Commands in RESP2's request form (`*<n>\r\n$<len>\r\n<arg>\r\n...`), all in one string so a
 * whole pipeline goes out in one write. Lengths count UTF-8 bytes, as Redis reads them.
 */
export function encodeCommandText(commands: readonly (readonly string[])[]): string {
  let text = '';
  for (const command of commands) {
    text += `*${command.length}\r\n`;
    for (const arg of command) text += `$${utf8Length(arg)}\r\n${arg}\r\n`;
  }
  return text;
}

/** The same as bytes, for a Web stream's writer. */
export function encodeCommands(commands: readonly (readonly string[])[]): Uint8Array {
  return encoder.encode(encodeCommandText(commands));
}

/** Bytes of a string in UTF-8, without encoding it. */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 2; // a surrogate pair: 4 bytes for 2 UTF-16 units
      i++;
    } else bytes += 2; // the rest of the BMP, and a lone surrogate (sent as U+FFFD)
  }
  return bytes;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

const CR = 13;
const LF = 10;
const decoder = new TextDecoder();
const utf8 = (bytes: Uint8Array): string => decoder.decode(bytes);

/** Thrown for bytes that are not RESP: the connection cannot be trusted any further. */
export class RespProtocolError extends Error {}

/**
 * Incremental reply parser: feed it chunks as they arrive, get every complete reply back. A
 * reply split across chunks waits in the buffer until its last byte comes. Strings (bulk and
 * simple) are UTF-8 text unless `decode` says otherwise; it gets a view of the received
 * bytes, which are never written to again, so it may keep the view instead of copying.
 */
export class RespReader<S = string> {
  private buffer: Uint8Array = new Uint8Array(0);
  private offset = 0;

  constructor(private readonly decode: (bytes: Uint8Array) => S = utf8 as (bytes: Uint8Array) => S) {}

  push(chunk: Uint8Array): RespReply<S>[] {
    this.append(chunk);
    const replies: RespReply<S>[] = [];
    for (;;) {
      const start = this.offset;
      const reply = this.parse();
      if (reply === INCOMPLETE) {
        this.offset = start;
        break;
      }
      replies.push(reply);
    }
    return replies;
  }

  private append(chunk: Uint8Array): void {
    const rest = this.buffer.length - this.offset;
    if (rest === 0) {
      this.buffer = chunk;
    } else {
      const joined = new Uint8Array(rest + chunk.length);
      joined.set(this.buffer.subarray(this.offset));
      joined.set(chunk, rest);
      this.buffer = joined;
    }
    this.offset = 0;
  }

  private parse(): RespReply<S> | typeof INCOMPLETE {
    const start = this.offset;
    const end = this.lineEnd();
    if (end === -1) return INCOMPLETE;
    const type = this.buffer[start];
    this.offset = end + 2;
    if (type === 43 /* + */) return this.decode(this.buffer.subarray(start + 1, end));
    if (type === 45 /* - */) return new RespError(this.text(start + 1, end));
    if (type === 58 /* : */) return this.integer(start + 1, end);
    if (type === 36 /* $ */) return this.bulk(this.integer(start + 1, end));
    if (type === 42 /* * */) return this.array(this.integer(start + 1, end));
    throw new RespProtocolError(`unexpected RESP type byte ${type}`);
  }

  private bulk(length: number): S | null | typeof INCOMPLETE {
    if (length < 0) return null;
    const end = this.offset + length;
    if (end + 2 > this.buffer.length) return INCOMPLETE;
    const value = this.decode(this.buffer.subarray(this.offset, end));
    this.offset = end + 2;
    return value;
  }

  private array(length: number): RespValue<S>[] | null | typeof INCOMPLETE {
    if (length < 0) return null;
    const items: RespValue<S>[] = [];
    for (let i = 0; i < length; i++) {
      const start = this.offset;
      const item = this.parse();
      if (item === INCOMPLETE) return INCOMPLETE;
      // An error inside an array (a script's error table) stays readable as its message.
      items.push(
        item instanceof RespError ? this.decode(this.buffer.subarray(start + 1, this.offset - 2)) : item,
      );
    }
    return items;
  }

  /** Where the line that starts at the offset ends (its CR), or -1 before its CRLF arrived. */
  private lineEnd(): number {
    const { buffer } = this;
    for (let i = this.offset + 1; i + 1 < buffer.length; i++) {
      if (buffer[i] === CR && buffer[i + 1] === LF) return i;
    }
    return -1;
  }

  private text(from: number, to: number): string {
    return utf8(this.buffer.subarray(from, to));
  }

  /** A decimal integer straight from its bytes (lengths and counts: the common lines). */
  private integer(from: number, to: number): number {
    const { buffer } = this;
    const negative = buffer[from] === 45; /* - */
    let value = 0;
    for (let i = negative ? from + 1 : from; i < to; i++) {
      const digit = (buffer[i] as number) - 48;
      if (digit < 0 || digit > 9) {
        throw new RespProtocolError(`not a RESP integer: ${this.text(from, to)}`);
      }
      value = value * 10 + digit;
    }
    if (to - from === (negative ? 1 : 0)) throw new RespProtocolError('an empty RESP integer');
    return negative ? -value : value;
  }
}

const INCOMPLETE = Symbol('incomplete');
