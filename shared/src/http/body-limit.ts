import { AppError } from './app-error';
import { readBodyUpTo } from './bounded-body';
import { DEFAULT_DISCARD_BOUNDS, type DiscardBounds } from './discard-body';

/** What checkBodySize found out about a request's body. */
export type BodySizeCheck =
  /** Within the limit, or no body: the request goes on as it is. */
  | { kind: 'within' }
  /** Sent without a length and read whole within the limit: the request's body from here on. */
  | { kind: 'read'; bytes: Uint8Array<ArrayBuffer> }
  /** Content-Length over the limit; nothing of the body was read. */
  | { kind: 'declared-too-large' }
  /** Sent without a length, past the limit; `drained` says whether the rest was read and dropped. */
  | { kind: 'too-large'; drained: boolean };

const WITHIN: BodySizeCheck = { kind: 'within' };
const DECLARED_TOO_LARGE: BodySizeCheck = { kind: 'declared-too-large' };

/**
 * Holds a request body to `maxBytes`, the check of both apps' body-limit middlewares. A body that
 * declares its length (what every SDK sends, and not chunked) is judged by its Content-Length
 * alone: one header read on the hot path, and a length that is not a number is over the limit.
 * A body sent without a length is read as it comes (bounded-body.ts); past the limit the rest
 * is read and dropped within `bounds`, so that a client still sending gets the refusal.
 */
export async function checkBodySize(
  request: Request,
  maxBytes: number,
  bounds: DiscardBounds = DEFAULT_DISCARD_BOUNDS,
): Promise<BodySizeCheck> {
  const { headers } = request;
  const declared = headers.get('content-length');
  if (declared !== null && !headers.has('transfer-encoding')) {
    return Number(declared) <= maxBytes ? WITHIN : DECLARED_TOO_LARGE;
  }
  const body = request.body;
  if (body === null) return WITHIN;
  const read = await readBodyUpTo(body, maxBytes, bounds);
  return 'tooLarge' in read
    ? { kind: 'too-large', drained: read.drained }
    : { kind: 'read', bytes: read.bytes };
}

/**
 * The 413 for a body over `maxBytes`. `closeConnection` when the rest of the body could not be
 * read and dropped: the socket then ends cleanly after the full response.
 */
export function bodyTooLarge(maxBytes: number, closeConnection = false): AppError {
  return new AppError(413, `Request body exceeds ${maxBytes} bytes`, {
    headers: closeConnection ? { connection: 'close' } : {},
  });
}
