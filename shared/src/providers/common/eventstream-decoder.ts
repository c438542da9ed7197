import { crc32 } from './eventstream-crc32';
import { decodeHeaders } from './eventstream-headers';
import {
  EventStreamError,
  type EventStreamMessage,
  MAX_MESSAGE_LENGTH,
  MIN_MESSAGE_LENGTH,
  PRELUDE_LENGTH,
} from './eventstream-types';

/**
 * Incremental AWS event stream parser: feed byte chunks split anywhere, get whole messages
 * back. Both checksums are verified; a mismatch throws, because a corrupt length would
 * desynchronise every message after it.
 */
export class EventStreamParser {
  private buffer = new Uint8Array(4096);
  private length = 0;

  /** Appends a chunk and returns every message it completed. */
  push(chunk: Uint8Array): EventStreamMessage[] {
    this.append(chunk);
    const messages: EventStreamMessage[] = [];
    for (let message = this.next(); message; message = this.next()) messages.push(message);
    return messages;
  }

  /** Adds bytes without parsing; pair with next() to handle messages one at a time. */
  append(chunk: Uint8Array): void {
    if (this.length + chunk.length > this.buffer.length) {
      const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.length + chunk.length));
      grown.set(this.buffer.subarray(0, this.length));
      this.buffer = grown;
    }
    this.buffer.set(chunk, this.length);
    this.length += chunk.length;
  }

  /** The next complete message, or undefined until more bytes arrive. */
  next(): EventStreamMessage | undefined {
    const total = this.nextMessageLength();
    if (total === undefined || this.length < total) return undefined;
    const message = decodeMessage(this.buffer.subarray(0, total));
    // Keep the tail (the start of the next message) at the front of the buffer.
    this.buffer.copyWithin(0, total, this.length);
    this.length -= total;
    return message;
  }

  /** Call at end of input: leftover bytes mean the stream was cut mid-message. */
  end(): void {
    if (this.length > 0) {
      throw new EventStreamError(`event stream ended inside a message (${this.length} bytes left)`);
    }
  }

  /** The total length from a complete, verified prelude, or undefined if not all here yet. */
  private nextMessageLength(): number | undefined {
    if (this.length < PRELUDE_LENGTH) return undefined;
    const view = new DataView(this.buffer.buffer, this.buffer.byteOffset, PRELUDE_LENGTH);
    // Check the prelude before trusting its lengths, so a corrupt length fails fast instead
    // of making us wait for bytes that will never come.
    if (crc32(this.buffer.subarray(0, 8)) !== view.getUint32(8)) {
      throw new EventStreamError('event stream prelude checksum mismatch');
    }
    const total = view.getUint32(0);
    const headersLength = view.getUint32(4);
    if (total < MIN_MESSAGE_LENGTH || total > MAX_MESSAGE_LENGTH) {
      throw new EventStreamError(`event stream message length ${total} out of range`);
    }
    if (headersLength > total - MIN_MESSAGE_LENGTH) {
      throw new EventStreamError(`event stream headers length ${headersLength} exceeds the message`);
    }
    return total;
  }
}

/** One complete message whose prelude was already verified. */
function decodeMessage(bytes: Uint8Array): EventStreamMessage {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const total = bytes.length;
  if (crc32(bytes.subarray(0, total - 4)) !== view.getUint32(total - 4)) {
    throw new EventStreamError('event stream message checksum mismatch');
  }
  const headersEnd = PRELUDE_LENGTH + view.getUint32(4);
  return {
    headers: decodeHeaders(bytes.subarray(PRELUDE_LENGTH, headersEnd)),
    // Copy: the parser reuses its buffer for the next message.
    payload: bytes.slice(headersEnd, total - 4),
  };
}

/** The parser as a stream stage; errors the stream on a checksum or framing failure. */
export function createEventStreamDecoder(): TransformStream<Uint8Array, EventStreamMessage> {
  const parser = new EventStreamParser();
  return new TransformStream({
    transform(chunk, controller) {
      for (const message of parser.push(chunk)) controller.enqueue(message);
    },
    flush() {
      parser.end();
    },
  });
}
