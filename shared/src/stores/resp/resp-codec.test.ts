// The wire format of the gateway's Redis link (docs/architecture.md, The Redis link): RESP2
// commands out, replies in, whatever way the socket cuts the bytes.
import { describe, expect, it } from 'vitest';
import { encodeCommands, encodeCommandText, RespError, RespProtocolError, RespReader } from './resp-codec';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array) => new TextDecoder().decode(data);

describe('encodeCommands', () => {
  it('writes each command as an array of bulk strings, lengths in UTF-8 bytes', () => {
    expect(text(encodeCommands([['PING'], ['SET', 'k', 'héllo ✓ 🎉']]))).toBe(
      '*1\r\n$4\r\nPING\r\n*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$15\r\nhéllo ✓ 🎉\r\n',
    );
    expect(text(encodeCommands([['GET', '']]))).toBe('*2\r\n$3\r\nGET\r\n$0\r\n\r\n');
  });

  it('carries CR, LF and empty arguments intact (bulk strings are length-prefixed)', () => {
    expect(encodeCommandText([['SET', '', '\r\n$3\r\n']])).toBe(
      '*3\r\n$3\r\nSET\r\n$0\r\n\r\n$6\r\n\r\n$3\r\n\r\n',
    );
  });

  it('counts bytes as the encoder writes them, lone surrogates included', () => {
    for (const arg of ['é✓', '🎉x', '\ud83dx', 'x\udc00', '\ud83d']) {
      const [, length] = /^\*1\r\n\$(\d+)\r\n/.exec(encodeCommandText([[arg]])) ?? [];
      expect(Number(length), JSON.stringify(arg)).toBe(new TextEncoder().encode(arg).length);
      expect(Number(length), JSON.stringify(arg)).toBe(Buffer.byteLength(arg));
    }
  });
});

describe('RespReader', () => {
  const wire =
    '+OK\r\n-NOSCRIPT No matching script\r\n:42\r\n:-7\r\n$6\r\nh\xc3\xa9l\xc3\xa9\r\n$-1\r\n$0\r\n\r\n' +
    '*3\r\n:1\r\n*2\r\n$1\r\na\r\n$-1\r\n-ERR in table\r\n*-1\r\n*0\r\n';
  const expected = [
    'OK',
    new RespError('NOSCRIPT No matching script'),
    42,
    -7,
    'hélé',
    null,
    '',
    [1, ['a', null], 'ERR in table'],
    null,
    [],
  ];
  const raw = Uint8Array.from(wire, (c) => c.charCodeAt(0));

  it('reads every reply type of RESP2, errors inside arrays as their message', () => {
    expect(new RespReader().push(raw)).toEqual(expected);
  });

  it('gives the same replies however the bytes are split', () => {
    for (let cut = 1; cut < raw.length; cut++) {
      const reader = new RespReader();
      const replies = [...reader.push(raw.subarray(0, cut)), ...reader.push(raw.subarray(cut))];
      expect(replies, `cut at ${cut}`).toEqual(expected);
    }
    const reader = new RespReader();
    const oneByOne = [...raw].flatMap((byte) => reader.push(Uint8Array.of(byte)));
    expect(oneByOne).toEqual(expected);
  });

  it('waits for a bulk string split inside a multi-byte character', () => {
    const reader = new RespReader();
    const data = bytes('$4\r\n✓a\r\n');
    expect(reader.push(data.subarray(0, 6))).toEqual([]);
    expect(reader.push(data.subarray(6))).toEqual(['✓a']);
  });

  it('hands strings over as their bytes when told to, binary-safe, errors in arrays too', () => {
    const reader = new RespReader((data) => Array.from(data));
    expect(reader.push(Uint8Array.of(...bytes('$3\r\n'), 0xff, 0x00, 0xc3, ...bytes('\r\n+OK\r\n')))).toEqual(
      [[0xff, 0x00, 0xc3], [...bytes('OK')]],
    );
    expect(reader.push(bytes('*2\r\n-ERR x\r\n:1\r\n-NOSCRIPT y\r\n'))).toEqual([
      [[...bytes('ERR x')], 1],
      new RespError('NOSCRIPT y'),
    ]);
  });

  it('refuses bytes that are not RESP', () => {
    expect(() => new RespReader().push(bytes('HTTP/1.1 200 OK\r\n'))).toThrow(RespProtocolError);
    expect(() => new RespReader().push(bytes(':4x2\r\n'))).toThrow(RespProtocolError);
    expect(() => new RespReader().push(bytes('$\r\n'))).toThrow(RespProtocolError);
  });
});
