import { AppError } from '@sluice/shared/http/app-error';
import { readBodyUpTo } from '@sluice/shared/http/bounded-body';
import { DEFAULT_DISCARD_BOUNDS, discardRest } from '@sluice/shared/http/discard-body';
import type { MiddlewareHandler } from 'hono';

export interface BodyLimitOptions {
  maxBytes: number;
  /** Most of an oversized body read and thrown away so the connection stays usable. */
  discardBytes?: number;
  /** Longest spent throwing it away. */
  discardMs?: number;
}

/**
 * A request body over `maxBytes` is a 413. Unlike hono/body-limit, the rest of the body is read
 * and discarded before the answer (shared/http/discard-body.ts). Past `discardBytes` or
 * `discardMs` the 413 says `Connection: close`, so the socket ends cleanly after the full
 * response instead.
 */
export function limitBody(options: BodyLimitOptions): MiddlewareHandler {
  const { maxBytes } = options;
  const bounds = {
    maxBytes: options.discardBytes ?? DEFAULT_DISCARD_BOUNDS.maxBytes,
    maxMs: options.discardMs ?? DEFAULT_DISCARD_BOUNDS.maxMs,
  };
  return async (c, next) => {
    const body = c.req.raw.body;
    if (!body) return next();
    const declared = c.req.header('content-length');
    const chunked = c.req.header('transfer-encoding') !== undefined;
    if (declared !== undefined && !chunked) {
      if (Number(declared) <= maxBytes) return next();
      throw tooLarge(maxBytes, await discardRest(body.getReader(), bounds));
    }
    const read = await readBodyUpTo(body, maxBytes, bounds);
    if ('tooLarge' in read) throw tooLarge(maxBytes, read.drained);
    c.req.raw = new Request(c.req.raw, { body: read.bytes });
    return next();
  };
}

function tooLarge(maxBytes: number, drained: boolean): AppError {
  return new AppError(413, `Request body exceeds ${maxBytes} bytes`, {
    headers: drained ? {} : { connection: 'close' },
  });
}
