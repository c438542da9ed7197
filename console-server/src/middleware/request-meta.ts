import type { Context, MiddlewareHandler } from 'hono';
import type { ConsoleEnv } from '../types';

export interface RequestMetaOptions {
  /** Socket address of the peer; supplied by the server adapter (absent under app.request()). */
  remoteAddress?: (c: Context) => string | undefined;
  /** Behind a reverse proxy, take the client from the first X-Forwarded-For entry. */
  trustProxy?: boolean;
}

/** Records who is calling (IP, user agent) once, for audit records and attempt counters. */
export function requestMeta(options: RequestMetaOptions = {}): MiddlewareHandler<ConsoleEnv> {
  return async function requestMetaMiddleware(c, next) {
    const forwarded = options.trustProxy ? c.req.header('x-forwarded-for')?.split(',')[0]?.trim() : undefined;
    let socketAddress: string | undefined;
    try {
      socketAddress = options.remoteAddress?.(c);
    } catch {
      socketAddress = undefined;
    }
    c.set('meta', {
      ipAddress: forwarded || socketAddress || null,
      userAgent: c.req.header('user-agent')?.slice(0, 512) ?? null,
    });
    await next();
  };
}
