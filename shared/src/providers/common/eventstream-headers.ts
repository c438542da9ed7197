import { concatBytes } from '../../util/bytes';
import { EventStreamError, type EventStreamHeaderValue, HEADER_TYPE } from './eventstream-types';

/**
 * The typed header block of an event stream message: per header, name length (u8), name
 * (UTF-8), type code (u8), value. Strings and byte arrays carry a u16 length prefix.
 */
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });
const utf8Encoder = new TextEncoder();

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

export function encodeHeaders(headers: Record<string, EventStreamHeaderValue>): Uint8Array {
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

function uuidToString(bytes: Uint8Array): string {
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function uuidToBytes(uuid: string): Uint8Array {
  const hex = uuid.replaceAll('-', '');
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) throw new EventStreamError(`invalid uuid header value: ${uuid}`);
  return Uint8Array.from({ length: 16 }, (_, i) => Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16));
}

export { concatBytes };
