import { describe, expect, it } from 'vitest';
import {
  encodeEventStreamJson,
  encodeEventStreamMessage,
} from '../../../test/providers/common/eventstream-encoder';
import {
  concat,
  corrupt,
  everySplit,
  fromHex,
  runTransform,
} from '../../../test/providers/common/test-streams';
import { createEventStreamDecoder, EventStreamParser } from './eventstream-decoder';
import type { EventStreamMessage } from './eventstream-types';
import { EventStreamError } from './eventstream-types';

// Public AWS event stream test vectors (the ones every AWS SDK codec is tested against).
const VECTORS = {
  emptyMessage: '000000100000000005c248eb7d98c8ff',
  oneStringHeader:
    '0000003d0000002007fd83960c636f6e74656e742d747970650700106170706c69636174696f6e2f6a736f6e7b27666f6f273a27626172277d8d9c08b1',
  allHeaders:
    '000000cc000000af0fae64ca0a6576656e742d74797065040000a00c0c636f6e74656e742d747970650700106170706c69636174696f6e2f6a736f6e0a626f6f6c2066616c73650109626f6f6c207472756500046279746502cf08627974652062756606001449276d2061206c6974746c6520746561706f74210974696d657374616d70080000000000845fed05696e74313603002a05696e7436340500000000028757b20475756964090102030405060708090a0b0c0d0e0f107b27666f6f273a27626172277daba5f10c',
};
const payload = new TextEncoder().encode("{'foo':'bar'}");

const allHeadersMessage: EventStreamMessage = {
  headers: {
    'event-type': { type: 'integer', value: 40972 },
    'content-type': { type: 'string', value: 'application/json' },
    'bool false': { type: 'boolean', value: false },
    'bool true': { type: 'boolean', value: true },
    byte: { type: 'byte', value: -49 },
    'byte buf': { type: 'binary', value: new TextEncoder().encode("I'm a little teapot!") },
    timestamp: { type: 'timestamp', value: new Date(8675309) },
    int16: { type: 'short', value: 42 },
    int64: { type: 'long', value: 42424242n },
    uuid: { type: 'uuid', value: '01020304-0506-0708-090a-0b0c0d0e0f10' },
  },
  payload,
};

function parseAll(bytes: Uint8Array): EventStreamMessage[] {
  const parser = new EventStreamParser();
  const messages = parser.push(bytes);
  parser.end();
  return messages;
}

describe('event stream decoder', () => {
  it('decodes the standard vectors', () => {
    expect(parseAll(fromHex(VECTORS.emptyMessage))).toEqual([{ headers: {}, payload: new Uint8Array() }]);
    expect(parseAll(fromHex(VECTORS.oneStringHeader))).toEqual([
      { headers: { 'content-type': { type: 'string', value: 'application/json' } }, payload },
    ]);
    expect(parseAll(fromHex(VECTORS.allHeaders))).toEqual([allHeadersMessage]);
  });

  it('encodes byte-for-byte what the vectors hold', () => {
    expect(encodeEventStreamMessage(allHeadersMessage)).toEqual(fromHex(VECTORS.allHeaders));
    expect(encodeEventStreamMessage({ headers: {}, payload: new Uint8Array() })).toEqual(
      fromHex(VECTORS.emptyMessage),
    );
  });

  it('gives the same messages however the bytes are split', async () => {
    const bytes = concat([
      fromHex(VECTORS.allHeaders),
      encodeEventStreamJson({ messageType: 'event', eventType: 'chunk', body: { text: 'héllo ✓' } }),
      fromHex(VECTORS.emptyMessage),
      encodeEventStreamJson({ messageType: 'exception', exceptionType: 'throttlingException', body: {} }),
    ]);
    const expected = await runTransform(createEventStreamDecoder(), [bytes]);
    expect(expected).toHaveLength(4);
    expect(expected[1]?.headers[':event-type']).toEqual({ type: 'string', value: 'chunk' });
    for (const chunks of everySplit(bytes)) {
      expect(await runTransform(createEventStreamDecoder(), chunks)).toEqual(expected);
    }
  });

  it('rejects a corrupted payload (message CRC) and a corrupted length (prelude CRC)', () => {
    const vector = fromHex(VECTORS.oneStringHeader);
    expect(() => parseAll(corrupt(vector, 45, 0x40))).toThrow(/message checksum/);
    expect(() => parseAll(corrupt(vector, 3, 0x03))).toThrow(/prelude checksum/);
    expect(() => parseAll(corrupt(vector, vector.length - 1))).toThrow(EventStreamError);
  });

  it('errors the stream on a corrupt message, even when it arrives byte by byte', async () => {
    const bytes = corrupt(fromHex(VECTORS.allHeaders), 100, 0xff);
    const oneByteChunks = Array.from(bytes, (b) => Uint8Array.of(b));
    await expect(runTransform(createEventStreamDecoder(), oneByteChunks)).rejects.toThrow(/checksum/);
  });

  it('errors the stream when it ends inside a message', async () => {
    const bytes = fromHex(VECTORS.oneStringHeader).slice(0, 20);
    await expect(runTransform(createEventStreamDecoder(), [bytes])).rejects.toThrow(/ended inside a message/);
  });
});
