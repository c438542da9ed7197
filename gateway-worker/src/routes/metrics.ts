import { METRICS, renderExposition, seriesField } from '@sluice/shared/metrics';
import { ROUTE_STATE_VALUES, readRouteHealth } from '@sluice/shared/routing';
import { withDeadline } from '@sluice/shared/util';
import type { Context } from 'hono';
import type { GatewayEnv } from '../types';

/**
 * GET /metrics: Prometheus text format, the whole deployment's series (one Redis HGETALL), and
 * the routes that failed lately (another HGETALL, and a Postgres query for their names).
 */
export async function metricsRoute(c: Context<GatewayEnv>): Promise<Response> {
  const deps = c.get('deps');
  const [stored, routes] = await Promise.all([
    deps.metrics.read(),
    withDeadline(readRouteHealth(deps.redis, deps.db, Date.now()), deps.storeTimeoutMs, 'route health').catch(
      (error: unknown) => {
        deps.logger.child('gateway').warn('route health unavailable for /metrics', { error: String(error) });
        return [];
      },
    ),
  ]);
  for (const route of routes) {
    const labels = { route_id: route.route_id, model: route.model, provider: route.provider };
    stored[seriesField(METRICS.routeState.name, labels)] = ROUTE_STATE_VALUES[route.state];
  }
  const body = renderExposition(stored);
  return c.body(body, 200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
}
