import { renderExposition } from '@sluice/shared/metrics/exposition';
import type { Context } from 'hono';
import type { GatewayEnv } from '../types';

/** GET /metrics: Prometheus text format, the whole deployment's series (one Redis HGETALL). */
export async function metricsRoute(c: Context<GatewayEnv>): Promise<Response> {
  const body = renderExposition(await c.var.deps.metrics.read());
  return c.body(body, 200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
}
