import { createRoute } from '@hono/zod-openapi';
import { probeLatency } from '@sluice/shared/stores';
import { sql } from 'drizzle-orm';
import { createRouter, jsonResponse } from '../openapi';
import { ConsoleHealthSchema } from '../schemas/identity';

const healthRoute = createRoute({
  method: 'get',
  path: '/',
  tags: ['health'],
  summary: 'Store latencies and pool figures; 503 when Postgres or Redis is down',
  responses: {
    200: jsonResponse(ConsoleHealthSchema, 'All critical stores reachable'),
    503: jsonResponse(ConsoleHealthSchema, 'Postgres or Redis unreachable (degraded)'),
  },
});

/** Postgres and Redis are critical; ClickHouse being down alone is not "degraded". */
export const healthRoutes = createRouter().openapi(healthRoute, async (c) => {
  const { deps } = c.var;
  const [pg, redis, clickhouse] = await Promise.all([
    probeLatency(() => deps.db.execute(sql`select 1`), deps.storeTimeoutMs),
    probeLatency(() => deps.redis.ping(), deps.storeTimeoutMs),
    deps.pingAnalytics ? probeLatency(deps.pingAnalytics, deps.storeTimeoutMs) : Promise.resolve(null),
  ]);
  const healthy = pg !== null && redis !== null;
  const state = (latency: number | null) => (latency === null ? ('error' as const) : ('ok' as const));
  const total = deps.pool.totalCount;
  const idle = deps.pool.idleCount;
  return c.json(
    {
      status: healthy ? ('ok' as const) : ('degraded' as const),
      pg_latency_ms: pg,
      redis_latency_ms: redis,
      clickhouse_latency_ms: clickhouse,
      pool_idle: idle,
      pool_active: Math.max(0, total - idle),
      uptime_seconds: Math.floor((Date.now() - deps.startedAt) / 1000),
      services: {
        postgres: state(pg),
        redis: state(redis),
        clickhouse: state(clickhouse),
      },
    },
    healthy ? 200 : 503,
  );
});
