import { httpServerAttributes, NO_SPAN, type Span } from '@sluice/shared/telemetry';
import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { backgroundFor, liveKeepAlive } from '../background';
import type { GatewayEnv } from '../types';

/**
 * One server span per request (HTTP semantic conventions), continuing the client's
 * `traceparent`; the routes hang their children on it (`c.get('span')`). A streamed answer's
 * span ends with its body. Scrapes and health probes are not traced.
 */
export function traceRequests(): MiddlewareHandler<GatewayEnv> {
  return async function traceRequestsMiddleware(c, next) {
    const { tracer, refreshTracing } = c.get('deps');
    if (refreshTracing) refreshTracing(() => backgroundFor(c));
    const path = c.req.path;
    if (path === '/metrics' || path.startsWith('/health')) {
      c.set('span', NO_SPAN);
      return next();
    }
    // An MCP request's span is started by its route, once the body says the method.
    if (path.startsWith('/mcp')) {
      try {
        await next();
      } finally {
        const span = c.get('span') as Span | undefined;
        if (span) finish(c, span);
      }
      return;
    }
    // What only a recorded span uses is built only for one: tracing off, a request pays for
    // no more than reading its traceparent (to send it on upstream).
    const span = tracer.start(`${c.req.method} ${path}`, 'server', {
      headers: c.req.raw.headers,
      keepAlive: tracer.enabled ? liveKeepAlive(c) : undefined,
    });
    if (span.recording) span.setAll(httpServerAttributes(c.req.raw, path));
    c.set('span', span);
    try {
      await next();
    } finally {
      finish(c, span);
    }
  };
}

/** The response's status on the span, which ends with the response (a stream: its body). */
function finish(c: Context<GatewayEnv>, span: Span): void {
  if (!span.recording) return;
  const route = routePath(c);
  if (route && route !== '/*' && route !== '*') span.set('http.route', route);
  const status = c.res.status;
  span.set('http.response.status_code', status);
  if (status >= 500) span.fail(`HTTP ${status}`);
  const ends = c.get('bodyEnds');
  // Within the request's own background: a continuation of an ended request never runs.
  if (ends) backgroundFor(c)(ends.finally(() => span.end()));
  else span.end();
}
