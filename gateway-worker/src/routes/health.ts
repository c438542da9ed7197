import { readiness } from '@sluice/shared/stores';
import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import type { GatewayEnv } from '../types';

export const healthRoutes = new Hono<GatewayEnv>()
  .get('/', (c) => c.json({ status: 'ok' }))
  .get('/live', (c) => c.json({ status: 'alive' }))
  .get('/ready', async (c) => {
    const deps = c.get('deps');
    const ready = await readiness(
      { database: () => deps.db.execute(sql`select 1`), cache: () => deps.redis.ping() },
      deps.storeTimeoutMs,
    );
    return c.json(ready, ready.status === 'ready' ? 200 : 503);
  });
