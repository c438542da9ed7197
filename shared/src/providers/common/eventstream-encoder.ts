import { crc32 } from './eventstream-crc32';
import { encodeHeaders } from './eventstream-headers';
import type { EventStreamHeaderValue, EventStreamMessage } from './eventstream-types';
import { MIN_MESSAGE_LENGTH, PRELUDE_LENGTH } from './eventstream-types';

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
