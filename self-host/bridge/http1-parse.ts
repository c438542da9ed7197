/**
 * The request side of HTTP/1.1 (RFC 9112) as the bridge's lean front needs it: a request head
 * read from the bytes of a connection, and its body framed by Content-Length or chunked
 * transfer coding. Pure functions over buffers, so every split of the bytes can be tested.
 *
 * Strict where leniency lets requests be smuggled or misread: no obs-fold, no whitespace
 * before a header's colon, one Content-Length value, Transfer-Encoding only as `chunked` and
 * never beside Content-Length, only HTTP/1.0 and 1.1.
 */

export interface RequestHead {
  method: string;
  /** The request target as sent (origin-form for every client of the bridge). */
  target: string;
  /** 0 for HTTP/1.0, 1 for HTTP/1.1. */
  minor: 0 | 1;
  /** Header values by lower-case name; repeated fields joined with ", " (RFC 9110 5.3). */
  headers: Map<string, string>;
  /** Bytes of the head, the final CRLF CRLF included. */
  length: number;
  body: { kind: 'none' } | { kind: 'length'; bytes: number } | { kind: 'chunked' };
  keepAlive: boolean;
}

/** A request that cannot be read: answered with this status, then the connection closes. */
export class HttpParseError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

// Character classes by code (the head is read as latin1: one char per byte). Tables rather than
// regular expressions: a head is checked char by char once, on every request of the hot path.
const TOKEN_CHAR = charTable((c) => /[!#$%&'*+\-.^_`|~0-9A-Za-z]/.test(String.fromCharCode(c)));
// Visible ASCII (no controls, no spaces): what a request target may hold.
const TARGET_CHAR = charTable((c) => c >= 0x21 && c <= 0x7e);
// Field values: visible characters, spaces, tabs and obs-text; never CR, LF or NUL.
const VALUE_CHAR = charTable((c) => c === 0x09 || (c >= 0x20 && c !== 0x7f));
const HEAD_END = Buffer.from('\r\n\r\n');

function charTable(accepts: (code: number) => boolean): Uint8Array {
  const table = new Uint8Array(256);
  for (let c = 0; c < 256; c++) table[c] = accepts(c) ? 1 : 0;
  return table;
}

/** Whether text[from, to) is non-empty and every char is in the table. */
function allIn(table: Uint8Array, text: string, from: number, to: number): boolean {
  if (to <= from) return false;
  for (let i = from; i < to; i++) if (table[text.charCodeAt(i)] !== 1) return false;
  return true;
}

/**
 * The request head at `from`, or null while its end has not arrived. Empty lines before a
 * request line are skipped (RFC 9112 2.2) and counted in `length` and against maxHeadBytes.
 * Throws HttpParseError for a malformed head, and 431 once maxHeadBytes pass without its end.
 */
export function parseRequestHead(buf: Buffer, from: number, maxHeadBytes: number): RequestHead | null {
  let start = from;
  while (start + 1 < buf.length && buf[start] === 13 && buf[start + 1] === 10) start += 2;
  // Empty lines before the request count against the cap too: else they could come forever.
  const tooLarge = () => new HttpParseError(431, 'request head too large');
  if (start - from > maxHeadBytes) throw tooLarge();
  const end = buf.indexOf(HEAD_END, start);
  if (end < 0) {
    // Up to 3 bytes of the final CRLF CRLF may be here already: they are not the head's.
    if (buf.length - from > maxHeadBytes + 3) throw tooLarge();
    return null;
  }
  if (end - from > maxHeadBytes) throw tooLarge();
  const text = buf.toString('latin1', start, end);
  const lineEnd = text.indexOf('\r\n');
  const head = requestLine(lineEnd < 0 ? text : text.slice(0, lineEnd));
  const headers = new Map<string, string>();
  let at = lineEnd;
  while (at >= 0) {
    const next = text.indexOf('\r\n', at + 2);
    addField(headers, text, at + 2, next < 0 ? text.length : next);
    at = next;
  }
  const body = bodyFraming(headers, head.minor);
  // Every field named in one literal, not `...head` and more: on Node 20 that spread gave each
  // head a hidden class of its own (a runtime call per field, and every reader of heads went
  // megamorphic); 8.6 → 2.4 µs per head alone, measured.
  return {
    method: head.method,
    target: head.target,
    minor: head.minor,
    headers,
    length: end + 4 - from,
    body,
    keepAlive: keepsAlive(headers.get('connection'), head.minor),
  };
}

function requestLine(line: string): Pick<RequestHead, 'method' | 'target' | 'minor'> {
  const parts = line.split(' ');
  if (parts.length !== 3) throw new HttpParseError(400, 'malformed request line');
  const [method, target, version] = parts as [string, string, string];
  if (!allIn(TOKEN_CHAR, method, 0, method.length)) throw new HttpParseError(400, 'malformed method');
  if (!allIn(TARGET_CHAR, target, 0, target.length))
    throw new HttpParseError(400, 'malformed request target');
  if (version === 'HTTP/1.1') return { method, target, minor: 1 };
  if (version === 'HTTP/1.0') return { method, target, minor: 0 };
  // A later 1.x is read as the highest 1.x known (RFC 9112 2.3); another major is not spoken.
  if (/^HTTP\/1\.\d$/.test(version)) return { method, target, minor: 1 };
  if (/^HTTP\/\d\.\d$/.test(version)) throw new HttpParseError(505, 'HTTP version not supported');
  throw new HttpParseError(400, 'malformed HTTP version');
}

/** The field on text[from, to): `name: value`, optional whitespace around the value. */
function addField(headers: Map<string, string>, text: string, from: number, to: number): void {
  const colon = text.indexOf(':', from);
  // A line folded onto the previous one (obs-fold) starts with whitespace: its name test fails.
  if (colon < 0 || colon >= to || !allIn(TOKEN_CHAR, text, from, colon)) {
    throw new HttpParseError(400, 'malformed header line');
  }
  let first = colon + 1;
  let last = to;
  while (first < last && isBlank(text.charCodeAt(first))) first++;
  while (last > first && isBlank(text.charCodeAt(last - 1))) last--;
  if (first < last && !allIn(VALUE_CHAR, text, first, last))
    throw new HttpParseError(400, 'malformed header value');
  const value = text.slice(first, last);
  const key = text.slice(from, colon).toLowerCase();
  const held = headers.get(key);
  headers.set(key, held === undefined ? value : `${held}, ${value}`);
}

function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

function bodyFraming(headers: Map<string, string>, minor: 0 | 1): RequestHead['body'] {
  const coding = headers.get('transfer-encoding');
  const length = headers.get('content-length');
  if (coding !== undefined) {
    if (length !== undefined) throw new HttpParseError(400, 'both Content-Length and Transfer-Encoding');
    if (minor === 0) throw new HttpParseError(400, 'Transfer-Encoding in an HTTP/1.0 request');
    if (coding.toLowerCase() !== 'chunked') throw new HttpParseError(501, 'unsupported transfer coding');
    return { kind: 'chunked' };
  }
  if (length === undefined) return { kind: 'none' };
  // A list of one repeated value ("5, 5") is the same length sent twice; anything else is not.
  const values = new Set(length.split(',').map((v) => v.trim()));
  const [only] = values;
  if (values.size !== 1 || only === undefined || !/^\d{1,15}$/.test(only)) {
    throw new HttpParseError(400, 'malformed Content-Length');
  }
  const bytes = Number(only);
  return bytes === 0 ? { kind: 'none' } : { kind: 'length', bytes };
}

function keepsAlive(connection: string | undefined, minor: 0 | 1): boolean {
  const options = (connection ?? '')
    .toLowerCase()
    .split(',')
    .map((o) => o.trim());
  return minor === 1 ? !options.includes('close') : options.includes('keep-alive');
}

export interface ChunkedBody {
  body: Buffer;
  /** Bytes of the chunked coding consumed, from the offset given. */
  length: number;
}

/**
 * A whole chunked body at `from` (its chunks joined, extensions and trailers dropped), or null
 * while it has not all arrived. Throws HttpParseError on bad framing, and 413 once the data
 * passes maxBytes (checked as each chunk size is read, before its data arrives).
 */
export function parseChunkedBody(buf: Buffer, from: number, maxBytes: number): ChunkedBody | null {
  const parts: Buffer[] = [];
  let size = 0;
  let at = from;
  for (;;) {
    const eol = buf.indexOf('\r\n', at, 'latin1');
    if (eol < 0) return pendingLine(buf.length - at, 'chunk size');
    if (eol - at > MAX_LINE) throw new HttpParseError(400, 'chunk size line too long');
    const sizeText = buf.toString('latin1', at, eol).split(';', 1)[0]?.trim() ?? '';
    if (!/^[0-9a-fA-F]{1,8}$/.test(sizeText)) throw new HttpParseError(400, 'malformed chunk size');
    const chunk = Number.parseInt(sizeText, 16);
    if (chunk === 0) return finishTrailers(buf, eol + 2, from, parts, size);
    size += chunk;
    if (size > maxBytes) throw new HttpParseError(413, `request body exceeds ${maxBytes} bytes`);
    const dataEnd = eol + 2 + chunk;
    if (buf.length < dataEnd + 2) return null;
    if (buf[dataEnd] !== 13 || buf[dataEnd + 1] !== 10) throw new HttpParseError(400, 'malformed chunk');
    parts.push(buf.subarray(eol + 2, dataEnd));
    at = dataEnd + 2;
  }
}

// A chunk-size or trailer line has no business being long; without this a peer could make
// the bridge buffer megabytes looking for a line end.
const MAX_LINE = 8 * 1024;

/** A line still arriving: null, unless it is already longer than a line may be (its CR may be here). */
function pendingLine(pending: number, what: string): null {
  if (pending > MAX_LINE + 1) throw new HttpParseError(400, `${what} line too long`);
  return null;
}

function finishTrailers(
  buf: Buffer,
  at: number,
  from: number,
  parts: Buffer[],
  size: number,
): ChunkedBody | null {
  let line = at;
  for (;;) {
    const eol = buf.indexOf('\r\n', line, 'latin1');
    if (eol < 0) return pendingLine(buf.length - line, 'trailer');
    if (eol === line) return { body: Buffer.concat(parts, size), length: eol + 2 - from };
    if (eol - line > MAX_LINE) throw new HttpParseError(400, 'trailer line too long');
    line = eol + 2;
  }
}
