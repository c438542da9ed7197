import { bodyTooLarge, checkBodySize } from '@sluice/shared/http';
import type { MiddlewareHandler } from 'hono';
import type { GatewayEnv } from '../types';

/**
 * Refuses bodies over `maxSize` bytes with a 413 (shared/http/body-limit.ts). A declared length
 * over the limit is refused unread (the refusal reads the body on, errors.ts); a chunked body
 * over it has been read and dropped before the 413, so a client still sending gets it rather
 * than a reset.
 */
export function limitBodySize(maxSize: number): MiddlewareHandler<GatewayEnv> {
  return async function bodySizeMiddleware(c, next) {
    const check = await checkBodySize(c.req.raw, maxSize);
    if (check.kind === 'declared-too-large' || check.kind === 'too-large') throw bodyTooLarge(maxSize);
    if (check.kind === 'read') c.req.raw = new Request(c.req.raw, { body: check.bytes });
    await next();
  };
}
