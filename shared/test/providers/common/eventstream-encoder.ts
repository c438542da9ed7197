/**
 * AWS event stream framing written out, for tests and fake upstreams only (the gateway only
 * decodes it: shared/src/providers/common/eventstream-decoder.ts).
 */

import { crc32 } from '../../../src/providers/common/eventstream-crc32';
import {
  EventStreamError,
  type EventStreamHeaderValue,
  type EventStreamMessage,
  HEADER_TYPE,
  MIN_MESSAGE_LENGTH,
  PRELUDE_LENGTH,
} from '../../../src/providers/common/eventstream-types';
import { concatBytes } from '../../../src/util/bytes';

const utf8Encoder = new TextEncoder();

/** One message in AWS event stream framing, with both checksums. */
export function encodeEventStreamMessage(message: EventStreamMessage): Uint8Array {
  const headers = encodeHeaders(message.headers);
  const total = MIN_MESSAGE_LENGTH + headers.length + message.payload.length;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, total);
  view.setUint32(4, headers.length);
  view.setUint32(8, crc32(out.subarray(0, 8)));
  out.set(headers, PRELUDE_LENGTH);
  out.set(message.payload, PRELUDE_LENGTH + headers.length);
  view.setUint32(total - 4, crc32(out.subarray(0, total - 4)));
  return out;
}

export type EventStreamJsonMessage =
  | { messageType: 'event'; eventType: string; body: unknown }
  | { messageType: 'exception'; exceptionType: string; body: unknown };

/**
 * A JSON event or exception with the protocol headers AWS services send
 * (`:message-type`, `:event-type` / `:exception-type`, `:content-type`).
 */
export function encodeEventStreamJson(message: EventStreamJsonMessage): Uint8Array {
  const str = (value: string): EventStreamHeaderValue => ({ type: 'string', value });
  const headers: Record<string, EventStreamHeaderValue> =
    message.messageType === 'event'
      ? { ':event-type': str(message.eventType) }
      : { ':exception-type': str(message.exceptionType) };
  headers[':content-type'] = str('application/json');
  headers[':message-type'] = str(message.messageType);
  return encodeEventStreamMessage({
    headers,
    payload: new TextEncoder().encode(JSON.stringify(message.body)),
  });
}

/** Messages → bytes, for fake upstreams. */
export function createEventStreamEncoder(): TransformStream<EventStreamMessage, Uint8Array> {
  return new TransformStream({
    transform(message, controller) {
      controller.enqueue(encodeEventStreamMessage(message));
    },
  });
}

/** The typed header block: per header, name length (u8), name (UTF-8), type code (u8), value. */
function encodeHeaders(headers: Record<string, EventStreamHeaderValue>): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const [name, header] of Object.entries(headers)) {
    const nameBytes = utf8Encoder.encode(name);
    if (nameBytes.length > 255) throw new EventStreamError(`header name too long: ${name}`);
    parts.push(Uint8Array.of(nameBytes.length), nameBytes, encodeValue(header));
  }
  return concatBytes(parts);
}

function encodeValue(header: EventStreamHeaderValue): Uint8Array {
  const fixed = (type: number, size: number, write: (view: DataView) => void): Uint8Array => {
    const out = new Uint8Array(1 + size);
    const view = new DataView(out.buffer);
    view.setUint8(0, type);
    write(view);
    return out;
  };
  switch (header.type) {
    case 'boolean':
      return Uint8Array.of(header.value ? HEADER_TYPE.true : HEADER_TYPE.false);
    case 'byte':
      return fixed(HEADER_TYPE.byte, 1, (v) => v.setInt8(1, header.value));
    case 'short':
      return fixed(HEADER_TYPE.short, 2, (v) => v.setInt16(1, header.value));
    case 'integer':
      return fixed(HEADER_TYPE.integer, 4, (v) => v.setInt32(1, header.value));
    case 'long':
      return fixed(HEADER_TYPE.long, 8, (v) => v.setBigInt64(1, header.value));
    case 'timestamp':
      return fixed(HEADER_TYPE.timestamp, 8, (v) => v.setBigInt64(1, BigInt(header.value.getTime())));
    case 'uuid':
      return concatBytes([Uint8Array.of(HEADER_TYPE.uuid), uuidToBytes(header.value)]);
    case 'binary':
      return lengthPrefixed(HEADER_TYPE.binary, header.value);
    case 'string':
      return lengthPrefixed(HEADER_TYPE.string, utf8Encoder.encode(header.value));
  }
}

function lengthPrefixed(type: number, value: Uint8Array): Uint8Array {
  if (value.length > 0xffff) throw new EventStreamError('header value longer than 65535 bytes');
  const out = new Uint8Array(3 + value.length);
  new DataView(out.buffer).setUint16(1, value.length);
  out[0] = type;
  out.set(value, 3);
  return out;
}

function uuidToBytes(uuid: string): Uint8Array {
  const hex = uuid.replaceAll('-', '');
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) throw new EventStreamError(`invalid uuid header value: ${uuid}`);
  return Uint8Array.from({ length: 16 }, (_, i) => Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16));
}
