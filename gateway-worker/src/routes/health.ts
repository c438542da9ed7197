import { probeLatency } from '@sluice/shared/stores/probe';
import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import type { GatewayEnv } from '../types';

export const healthRoutes = new Hono<GatewayEnv>()
  .get('/', (c) => c.json({ status: 'ok' }))
  .get('/live', (c) => c.json({ status: 'alive' }))
  .get('/ready', async (c) => {
    const deps = c.get('deps');
    const [pg, redis] = await Promise.all([
      probeLatency(() => deps.db.execute(sql`select 1`), deps.storeTimeoutMs),
      probeLatency(() => deps.redis.ping(), deps.storeTimeoutMs),
    ]);
    const down = [
      pg === null ? 'database unreachable' : null,
      redis === null ? 'cache unreachable' : null,
    ].filter(Boolean);
    if (down.length > 0) return c.json({ status: 'not_ready', reason: down.join('; ') }, 503);
    return c.json({ status: 'ready' });
  });
