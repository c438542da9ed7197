import { readiness } from '@sluice/shared/stores';
import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import type { ConsoleEnv } from '../types';

/**
 * The load balancer's probes, as the gateway answers them (`/health`, `/health/live`,
 * `/health/ready`), ahead of the web UI so that they never get its page. `/api/health` stays
 * the console's detailed report.
 */
export const probeRoutes = new Hono<ConsoleEnv>()
  .get('/', (c) => c.json({ status: 'ok' }))
  .get('/live', (c) => c.json({ status: 'alive' }))
  .get('/ready', async (c) => {
    const { deps } = c.var;
    const ready = await readiness(
      { database: () => deps.db.execute(sql`select 1`), cache: () => deps.redis.ping() },
      deps.storeTimeoutMs,
    );
    return c.json(ready, ready.status === 'ready' ? 200 : 503);
  });
