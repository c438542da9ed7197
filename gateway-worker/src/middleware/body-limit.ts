import { AppError } from '@sluice/shared/http/app-error';
import { readBodyUpTo } from '@sluice/shared/http/bounded-body';
import type { MiddlewareHandler } from 'hono';
import type { GatewayEnv } from '../types';

/**
 * Refuses bodies over `maxSize` bytes with a 413. A request that declares its length (what
 * every SDK sends) is judged by its Content-Length header alone, one header read on the hot
 * path (the refusal reads the body on, errors.ts); a chunked body is read as it comes, and
 * past the limit the rest is read and dropped before the 413 (shared/http/bounded-body.ts),
 * so a client still sending gets it rather than a reset.
 */
export function limitBodySize(maxSize: number): MiddlewareHandler<GatewayEnv> {
  const tooLarge = () => new AppError(413, `Request body exceeds ${maxSize} bytes`);
  return async function bodySizeMiddleware(c, next) {
    const headers = c.req.raw.headers;
    const declared = headers.get('content-length');
    if (declared === null || headers.has('transfer-encoding')) {
      const body = c.req.raw.body;
      if (body === null) return next();
      const read = await readBodyUpTo(body, maxSize);
      if ('tooLarge' in read) throw tooLarge();
      c.req.raw = new Request(c.req.raw, { body: read.bytes });
      return next();
    }
    if (Number.parseInt(declared, 10) > maxSize) throw tooLarge();
    await next();
  };
}
