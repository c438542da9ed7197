import { EventStreamError, type EventStreamHeaderValue, HEADER_TYPE } from './eventstream-types';

/**
 * The typed header block of an event stream message: per header, name length (u8), name
 * (UTF-8), type code (u8), value. Strings and byte arrays carry a u16 length prefix. Only
 * decoded here; the tests' fakes write it (shared/test/providers/common/eventstream-encoder.ts).
 */
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

export function decodeHeaders(bytes: Uint8Array): Record<string, EventStreamHeaderValue> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headers: Record<string, EventStreamHeaderValue> = {};
  let offset = 0;
  const need = (n: number): number => {
    if (offset + n > bytes.length) throw new EventStreamError('event stream header block is truncated');
    const at = offset;
    offset += n;
    return at;
  };
  try {
    while (offset < bytes.length) {
      const nameLength = view.getUint8(need(1));
      const nameStart = need(nameLength);
      const name = utf8Decoder.decode(bytes.subarray(nameStart, nameStart + nameLength));
      const type = view.getUint8(need(1));
      headers[name] = decodeValue(type, view, bytes, need);
    }
  } catch (error) {
    // Invalid UTF-8 surfaces as a TypeError; callers only need to know the framing is bad.
    if (error instanceof EventStreamError) throw error;
    throw new EventStreamError(`event stream header block is malformed: ${String(error)}`);
  }
  return headers;
}

function decodeValue(
  type: number,
  view: DataView,
  bytes: Uint8Array,
  need: (n: number) => number,
): EventStreamHeaderValue {
  switch (type) {
    case HEADER_TYPE.true:
      return { type: 'boolean', value: true };
    case HEADER_TYPE.false:
      return { type: 'boolean', value: false };
    case HEADER_TYPE.byte:
      return { type: 'byte', value: view.getInt8(need(1)) };
    case HEADER_TYPE.short:
      return { type: 'short', value: view.getInt16(need(2)) };
    case HEADER_TYPE.integer:
      return { type: 'integer', value: view.getInt32(need(4)) };
    case HEADER_TYPE.long:
      return { type: 'long', value: view.getBigInt64(need(8)) };
    case HEADER_TYPE.timestamp:
      return { type: 'timestamp', value: new Date(Number(view.getBigInt64(need(8)))) };
    case HEADER_TYPE.uuid: {
      const start = need(16);
      return { type: 'uuid', value: uuidToString(bytes.subarray(start, start + 16)) };
    }
    case HEADER_TYPE.binary:
    case HEADER_TYPE.string: {
      const length = view.getUint16(need(2));
      const start = need(length);
      const raw = bytes.slice(start, start + length);
      return type === HEADER_TYPE.binary
        ? { type: 'binary', value: raw }
        : { type: 'string', value: utf8Decoder.decode(raw) };
    }
    default:
      throw new EventStreamError(`unknown event stream header type ${type}`);
  }
}

function uuidToString(bytes: Uint8Array): string {
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
