import { bodyTooLarge, checkBodySize, DEFAULT_DISCARD_BOUNDS, discardRest } from '@sluice/shared/http';
import type { MiddlewareHandler } from 'hono';

export interface BodyLimitOptions {
  maxBytes: number;
  /** Most of an oversized body read and thrown away so the connection stays usable. */
  discardBytes?: number;
  /** Longest spent throwing it away. */
  discardMs?: number;
}

/**
 * A request body over `maxBytes` is a 413 (shared/http/body-limit.ts). Unlike hono/body-limit,
 * the rest of the body is read and discarded before the answer (shared/http/discard-body.ts),
 * a declared length over the limit included. Past `discardBytes` or `discardMs` the 413 says
 * `Connection: close`, so the socket ends cleanly after the full response instead.
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
    const check = await checkBodySize(c.req.raw, maxBytes, bounds);
    switch (check.kind) {
      case 'declared-too-large':
        throw bodyTooLarge(maxBytes, !(await discardRest(body.getReader(), bounds)));
      case 'too-large':
        throw bodyTooLarge(maxBytes, !check.drained);
      case 'read':
        c.req.raw = new Request(c.req.raw, { body: check.bytes });
        break;
    }
    return next();
  };
}
