/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/): the `traceparent` a request
 * arrives with, and the one each outgoing call carries.
 */
export interface SpanContext {
  /** 32 lowercase hex digits, never all zero. */
  traceId: string;
  /** 16 lowercase hex digits, never all zero. */
  spanId: string;
  /** The trace-flags byte; bit 0 is `sampled`. */
  flags: number;
  /** The `tracestate` header as received (vendors' entries), passed on unchanged. */
  traceState: string;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);
/** tracestate holds at most 32 list members (and we keep at most 512 characters of it). */
const MAX_TRACESTATE = 512;

export const SAMPLED = 0x01;

/**
 * The context a `traceparent` header carries, or null when it is absent or invalid (a new
 * trace is started then, as the spec says). Version ff is invalid; a future version is read
 * for its first four fields.
 */
export function parseTraceparent(
  header: string | null | undefined,
  tracestate?: string | null,
): SpanContext | null {
  if (!header) return null;
  const match = TRACEPARENT.exec(header.trim());
  if (!match) return null;
  const [, version, traceId, spanId, flags, rest] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string?,
  ];
  if (version === 'ff' || (version === '00' && rest !== undefined)) return null;
  if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return null;
  const state = (tracestate ?? '').trim();
  return {
    traceId,
    spanId,
    flags: Number.parseInt(flags, 16),
    traceState: state.length > MAX_TRACESTATE ? '' : state,
  };
}

export function formatTraceparent(context: Pick<SpanContext, 'traceId' | 'spanId' | 'flags'>): string {
  return `00-${context.traceId}-${context.spanId}-${(context.flags & 0xff).toString(16).padStart(2, '0')}`;
}

/** The headers an outgoing call carries for `context` (tracestate only when there is one). */
export function traceHeaders(context: SpanContext): Record<string, string> {
  const headers: Record<string, string> = { traceparent: formatTraceparent(context) };
  if (context.traceState) headers.tracestate = context.traceState;
  return headers;
}

function randomHex(bytes: number): string {
  const buffer = new Uint8Array(bytes);
  for (;;) {
    crypto.getRandomValues(buffer);
    let hex = '';
    let zero = true;
    for (const byte of buffer) {
      if (byte !== 0) zero = false;
      hex += byte.toString(16).padStart(2, '0');
    }
    if (!zero) return hex;
  }
}

export const newTraceId = (): string => randomHex(16);
export const newSpanId = (): string => randomHex(8);
