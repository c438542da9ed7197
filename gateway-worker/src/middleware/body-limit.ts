import { AppError } from '@sluice/shared/http/app-error';
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { GatewayEnv } from '../types';

/**
 * Refuses bodies over `maxSize` bytes with a 413. A request that declares its length (what
 * every SDK sends) is judged by its Content-Length header alone, one header read on the hot
 * path; a chunked body is counted as it is read, by Hono's bodyLimit.
 */
export function limitBodySize(maxSize: number): MiddlewareHandler<GatewayEnv> {
  const tooLarge = () => {
    throw new AppError(413, `Request body exceeds ${maxSize} bytes`);
  };
  const counted = bodyLimit({ maxSize, onError: tooLarge });
  return async function bodySizeMiddleware(c, next) {
    const headers = c.req.raw.headers;
    const declared = headers.get('content-length');
    if (declared === null || headers.has('transfer-encoding')) return counted(c, next);
    if (Number.parseInt(declared, 10) > maxSize) tooLarge();
    await next();
  };
}
