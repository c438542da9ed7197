import { httpSamples } from '@sluice/shared/metrics/samples';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { backgroundFor } from '../background';
import type { GatewayEnv } from '../types';

/**
 * Counts every request by method, route pattern (never the raw path, so ids cannot explode the
 * series) and status, with the time to the response headers. Recorded after the response.
 */
export function recordHttpMetrics(): MiddlewareHandler<GatewayEnv> {
  return async function recordHttpMetricsMiddleware(c, next) {
    const started = performance.now();
    await next();
    // The route that answered (a middleware's pattern, such as /v1/*, when one refused first).
    const answered = routePath(c);
    const endpoint = answered === '/*' || answered === '*' || answered === '' ? 'unmatched' : answered;
    const samples = httpSamples(c.req.method, endpoint, c.res.status, (performance.now() - started) / 1000);
    backgroundFor(c)(c.var.deps.metrics.record(samples));
  };
}
