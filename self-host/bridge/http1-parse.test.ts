import { describe, expect, it } from 'vitest';
import { HttpParseError, parseChunkedBody, parseRequestHead } from './http1-parse';

const MAX = 8192;
const bytes = (text: string) => Buffer.from(text, 'latin1');
const head = (text: string, max = MAX) => parseRequestHead(bytes(text), 0, max);

/** The status of the HttpParseError that `run` throws (fails the test if it throws anything else). */
function statusOf(run: () => unknown): number {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(HttpParseError);
    return (error as HttpParseError).status;
  }
  throw new Error('expected an HttpParseError, nothing was thrown');
}

/** Every strict prefix of `whole` reads as "not arrived yet"; the whole reads the same at any offset. */
function expectEveryCut<T>(whole: Buffer, parse: (buf: Buffer, from: number) => T | null): T {
  const full = parse(whole, 0);
  expect(full).not.toBeNull();
  for (let cut = 0; cut < whole.length; cut++) {
    expect(parse(whole.subarray(0, cut), 0), `cut at ${cut}`).toBeNull();
    // The same cut behind unrelated bytes, read from `from`.
    const shifted = Buffer.concat([bytes('junk'), whole.subarray(0, cut)]);
    expect(parse(shifted, 4), `cut at ${cut} from 4`).toBeNull();
  }
  expect(parse(Buffer.concat([bytes('junk'), whole]), 4)).toEqual(full);
  return full as T;
}

describe('parseRequestHead', () => {
  it('reads a GET with no body', () => {
    const text = 'GET /v1/ping?x=1 HTTP/1.1\r\nHost: a\r\n\r\n';
    const parsed = head(text);
    expect(parsed).toEqual({
      method: 'GET',
      target: '/v1/ping?x=1',
      minor: 1,
      headers: new Map([['host', 'a']]),
      length: text.length,
      body: { kind: 'none' },
      keepAlive: true,
    });
  });

  it('reads a POST framed by Content-Length, and stops at the end of the head', () => {
    const text = 'POST /pipeline HTTP/1.1\r\nContent-Length: 5\r\n\r\n';
    const parsed = parseRequestHead(bytes(`${text}hello`), 0, MAX);
    expect(parsed?.body).toEqual({ kind: 'length', bytes: 5 });
    expect(parsed?.length).toBe(text.length);
    expect(head('POST / HTTP/1.1\r\nContent-Length: 0\r\n\r\n')?.body).toEqual({ kind: 'none' });
  });

  it('lower-cases header names, trims values and joins repeated fields with ", "', () => {
    const parsed = head('GET / HTTP/1.1\r\nX-A:  one \t\r\nHOST: h\r\nx-a: two\r\nX-a:\r\n\r\n');
    expect(parsed?.headers.get('x-a')).toBe('one, two, ');
    expect(parsed?.headers.get('host')).toBe('h');
    // "É" is not a token character: that line is refused, not the obs-text value.
    expect(statusOf(() => head('GET / HTTP/1.1\r\n\xc9: x\r\n\r\n'))).toBe(400);
    expect(head('GET / HTTP/1.1\r\nX: caf\xe9\r\n\r\n')?.headers.get('x')).toBe('caf\xe9');
  });

  it('skips empty lines before the request line and counts them, reading from `from`', () => {
    const text = 'GET / HTTP/1.1\r\n\r\n';
    expect(head(`\r\n\r\n${text}`)?.length).toBe(text.length + 4);
    const buf = bytes(`previous-body\r\n${text}GET /next`);
    const parsed = parseRequestHead(buf, 13, MAX);
    expect(parsed?.target).toBe('/');
    expect(parsed?.length).toBe(text.length + 2);
    expect(parseRequestHead(bytes('\r\n\r\n'), 0, MAX)).toBeNull();
  });

  it('returns null for every cut of a request and the same result for the whole', () => {
    const whole = bytes('\r\nPOST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nX: 1\r\nx: 2\r\n\r\n');
    const full = expectEveryCut(whole, (buf, from) => parseRequestHead(buf, from, MAX));
    expect(full.length).toBe(whole.length);
    expect(full.headers.get('x')).toBe('1, 2');
  });

  it('answers 431 past maxHeadBytes, with or without the end of the head', () => {
    const big = `GET / HTTP/1.1\r\nX: ${'a'.repeat(100)}`;
    expect(statusOf(() => head(big, 64))).toBe(431);
    expect(statusOf(() => head(`${big}\r\n\r\n`, 64))).toBe(431);
    expect(head(`${big}\r\n\r\n`, 200)?.headers.get('x')).toHaveLength(100);
  });

  it('counts empty lines before the request line against maxHeadBytes', () => {
    // Else a peer can stream CRLFs for as long as the request timeout allows, all of them buffered.
    expect(statusOf(() => head('\r\n'.repeat(1000), 1024))).toBe(431);
    expect(statusOf(() => head(`${'\r\n'.repeat(1000)}GET / HTTP/1.1\r\n\r\n`, 1024))).toBe(431);
  });

  it('does not let the limit depend on where the head was cut (a head just within it)', () => {
    const whole = bytes('GET / HTTP/1.1\r\nX: abcdef\r\n\r\n');
    const limit = whole.length - 4; // the head without its final CRLF CRLF, exactly at the limit
    expect(parseRequestHead(whole, 0, limit)).not.toBeNull();
    expectEveryCut(whole, (buf, from) => parseRequestHead(buf, from, limit));
  });

  it.each([
    ['a request line of two parts', 'GET /\r\n\r\n', 400],
    ['a double space', 'GET  / HTTP/1.1\r\n\r\n', 400],
    ['an empty method', ' / HTTP/1.1\r\n\r\n', 400],
    ['a method with a separator', 'GE(T / HTTP/1.1\r\n\r\n', 400],
    ['a space in the target', 'GET /a b HTTP/1.1\r\n\r\n', 400],
    ['a control character in the target', 'GET /a\x01b HTTP/1.1\r\n\r\n', 400],
    ['DEL in the target', 'GET /a\x7f HTTP/1.1\r\n\r\n', 400],
    ['a non-ASCII target', 'GET /\xe9 HTTP/1.1\r\n\r\n', 400],
    ['a lower-case version', 'GET / http/1.1\r\n\r\n', 400],
    ['a version without minor', 'GET / HTTP/1\r\n\r\n', 400],
    ['a garbage version', 'GET / HTTQ/1.1\r\n\r\n', 400],
    ['HTTP/2.0', 'GET / HTTP/2.0\r\n\r\n', 505],
    ['HTTP/0.9', 'GET / HTTP/0.9\r\n\r\n', 505],
  ])('refuses %s', (_name, text, status) => {
    expect(statusOf(() => head(text))).toBe(status);
  });

  it.each([
    ['obs-fold with a space', 'GET / HTTP/1.1\r\nX: a\r\n b\r\n\r\n'],
    ['obs-fold with a tab', 'GET / HTTP/1.1\r\nX: a\r\n\tb: c\r\n\r\n'],
    ['a space before the colon', 'GET / HTTP/1.1\r\nHost : a\r\n\r\n'],
    ['a tab before the colon', 'GET / HTTP/1.1\r\nHost\t: a\r\n\r\n'],
    ['a line without a colon', 'GET / HTTP/1.1\r\nHost\r\n\r\n'],
    ['an empty name', 'GET / HTTP/1.1\r\n: a\r\n\r\n'],
    ['a bare CR in a value', 'GET / HTTP/1.1\r\nX: a\rb\r\n\r\n'],
    ['a bare LF in a value', 'GET / HTTP/1.1\r\nX: a\nb\r\n\r\n'],
    ['a NUL in a value', 'GET / HTTP/1.1\r\nX: a\x00b\r\n\r\n'],
    ['another control in a value', 'GET / HTTP/1.1\r\nX: a\x1bb\r\n\r\n'],
  ])('refuses %s with 400', (_name, text) => {
    expect(statusOf(() => head(text))).toBe(400);
  });

  it('builds the forbidden bytes as single bytes (no escaping mishap)', () => {
    const buf = Buffer.concat([
      bytes('GET / HTTP/1.1\r\nX: a'),
      Buffer.from([0x0d, 0x62]),
      bytes('\r\n\r\n'),
    ]);
    expect(buf.includes(Buffer.from([0x61, 0x0d, 0x62]))).toBe(true);
    expect(statusOf(() => parseRequestHead(buf, 0, MAX))).toBe(400);
  });

  it.each([
    ['non-digits', 'Content-Length: 5a\r\n'],
    ['hex', 'Content-Length: 0x5\r\n'],
    ['a sign', 'Content-Length: +5\r\n'],
    ['a negative', 'Content-Length: -5\r\n'],
    ['a fraction', 'Content-Length: 5.0\r\n'],
    ['an empty value', 'Content-Length:\r\n'],
    ['two values in one field', 'Content-Length: 5, 6\r\n'],
    ['two fields that differ', 'Content-Length: 5\r\nContent-Length: 6\r\n'],
    ['an empty list member', 'Content-Length: 5,\r\n'],
    ['Transfer-Encoding beside it', 'Content-Length: 5\r\nTransfer-Encoding: chunked\r\n'],
  ])('refuses Content-Length with %s (400)', (_name, fields) => {
    expect(statusOf(() => head(`POST / HTTP/1.1\r\n${fields}\r\n`))).toBe(400);
  });

  it('takes one length sent twice, in one field or two', () => {
    expect(head('POST / HTTP/1.1\r\nContent-Length: 5, 5\r\n\r\n')?.body).toEqual({
      kind: 'length',
      bytes: 5,
    });
    expect(head('POST / HTTP/1.1\r\ncontent-length: 5\r\nCONTENT-LENGTH: 5\r\n\r\n')?.body).toEqual({
      kind: 'length',
      bytes: 5,
    });
  });

  it('frames chunked bodies, and refuses other codings and Transfer-Encoding in HTTP/1.0', () => {
    expect(head('POST / HTTP/1.1\r\nTransfer-Encoding: Chunked\r\n\r\n')?.body).toEqual({ kind: 'chunked' });
    expect(statusOf(() => head('POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n'))).toBe(501);
    expect(statusOf(() => head('POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n'))).toBe(501);
    expect(
      statusOf(() =>
        head('POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n'),
      ),
    ).toBe(501);
    expect(statusOf(() => head('POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n'))).toBe(400);
  });

  it.each([
    ['HTTP/1.1 by default', 'HTTP/1.1', '', true],
    ['HTTP/1.1 with Connection: close', 'HTTP/1.1', 'Connection: close\r\n', false],
    ['HTTP/1.1 with close in a list', 'HTTP/1.1', 'Connection: Upgrade, CLOSE\r\n', false],
    ['HTTP/1.0 by default', 'HTTP/1.0', '', false],
    ['HTTP/1.0 with Connection: keep-alive', 'HTTP/1.0', 'Connection: Keep-Alive\r\n', true],
    ['HTTP/1.1 with Connection: keep-alive', 'HTTP/1.1', 'Connection: keep-alive\r\n', true],
  ])('keeps alive %s: %s', (_name, version, fields, keepAlive) => {
    const parsed = head(`GET / ${version}\r\n${fields}\r\n`);
    expect(parsed?.minor).toBe(version === 'HTTP/1.1' ? 1 : 0);
    expect(parsed?.keepAlive).toBe(keepAlive);
  });
});

const chunked = (text: string, max = 1024) => parseChunkedBody(bytes(text), 0, max);

describe('parseChunkedBody', () => {
  it('joins chunks, drops extensions and trailers, and counts what it consumed', () => {
    const text =
      '5;name=value\r\nhello\r\n1\r\n \r\nA ; x="y"\r\n0123456789\r\n0;end\r\nX-T: 1\r\nY: 2\r\n\r\n';
    const read = parseChunkedBody(bytes(`${text}GET / HTTP/1.1`), 0, 1024);
    expect(read?.body.toString('latin1')).toBe('hello 0123456789');
    expect(read?.length).toBe(text.length);
    expect(chunked('0\r\n\r\n')).toEqual({ body: Buffer.alloc(0), length: 5 });
  });

  it('returns null for every cut of a chunked body and the same result for the whole', () => {
    const whole = bytes('3;ext\r\nabc\r\n10\r\n0123456789abcdef\r\n0\r\nTrailer: t\r\n\r\n');
    const full = expectEveryCut(whole, (buf, from) => parseChunkedBody(buf, from, 1024));
    expect(full.body.toString()).toBe('abc0123456789abcdef');
    expect(full.length).toBe(whole.length);
  });

  it.each([
    ['a non-hex size', 'g\r\nx\r\n0\r\n\r\n'],
    ['an empty size', '\r\nx\r\n0\r\n\r\n'],
    ['a signed size', '-1\r\nx\r\n0\r\n\r\n'],
    ['a 0x prefix', '0x1\r\nx\r\n0\r\n\r\n'],
    ['more than 8 hex digits', '000000001\r\nx\r\n0\r\n\r\n'],
    ['no CRLF after the data', '1\r\nxy\r\n0\r\n\r\n'],
    ['LF alone after the data', '1\r\nx\n0\r\n\r\n'],
  ])('refuses %s with 400', (_name, text) => {
    expect(statusOf(() => chunked(text))).toBe(400);
  });

  it('answers 413 once the sizes pass maxBytes, before the data arrives', () => {
    expect(chunked('8\r\n12345678\r\n0\r\n\r\n', 8)?.body.toString()).toBe('12345678');
    expect(statusOf(() => chunked('8\r\n12345678\r\n1\r\n', 8))).toBe(413);
    expect(statusOf(() => chunked('ffffffff\r\n', 1024))).toBe(413);
    expect(statusOf(() => chunked('5\r\n12345\r\n5\r\n', 9))).toBe(413);
  });

  it('refuses a size line that grows past the line limit without its end', () => {
    expect(statusOf(() => chunked(`1;${'e'.repeat(9000)}`))).toBe(400);
    expect(statusOf(() => chunked(`1\r\nx\r\n0\r\nX: ${'t'.repeat(9000)}`))).toBe(400);
    expect(chunked(`1;${'e'.repeat(100)}`)).toBeNull();
  });

  it('refuses an over-long size line the same whether or not its end has arrived', () => {
    const text = `1;${'e'.repeat(9000)}\r\nx\r\n0\r\n\r\n`;
    expect(statusOf(() => chunked(text.slice(0, 9002)))).toBe(400);
    expect(statusOf(() => chunked(text))).toBe(400);
  });

  it('treats a trailer line at the line limit the same at every cut', () => {
    const whole = bytes(`0\r\nX: ${'t'.repeat(8192 - 3)}\r\n\r\n`);
    expectEveryCut(whole, (buf, from) => parseChunkedBody(buf, from, 1024));
  });
});
