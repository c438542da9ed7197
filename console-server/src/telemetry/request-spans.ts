import { AsyncLocalStorage } from 'node:async_hooks';
import type { Span, Tracer } from '@sluice/shared/telemetry';
import { httpServerAttributes } from '@sluice/shared/telemetry';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';

/**
 * The span of the console request being served, wherever its work goes (database calls are
 * made far from the route): Node's async context carries it.
 */
const currentSpan = new AsyncLocalStorage<Span>();

export const activeSpan = (): Span | undefined => currentSpan.getStore();

/** Not traced: probes and the web UI's own files (a page load is dozens of them). */
function untraced(path: string): boolean {
  return (
    path.startsWith('/health') ||
    (!path.startsWith('/api') && !path.startsWith('/oauth') && !path.startsWith('/.well-known'))
  );
}

/**
 * One HTTP server span per console request (HTTP semantic conventions), continuing the
 * caller's traceparent; the database spans of the request hang under it.
 */
export function traceConsoleRequests(tracer: Tracer): MiddlewareHandler {
  return async function traceConsoleRequestsMiddleware(c, next) {
    if (!tracer.enabled || untraced(c.req.path)) return next();
    const span = tracer.start(`${c.req.method} ${c.req.path}`, 'server', {
      headers: c.req.raw.headers,
      attributes: httpServerAttributes(c.req.raw, c.req.path),
    });
    try {
      await currentSpan.run(span, next);
    } finally {
      const route = routePath(c);
      if (route && route !== '/*' && route !== '*') span.set('http.route', route);
      span.set('http.response.status_code', c.res.status);
      if (c.res.status >= 500) span.fail(`HTTP ${c.res.status}`);
      span.end();
    }
  };
}
