// /health/ready and /api/health — 503 when the relational database or cache store is
// unreachable; ClickHouse down alone is not degraded. Checked through the real drivers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleHarness, consoleHarness } from '../helpers/console';
import { gatewayHarness } from '../helpers/gateway';
import { appEnv, freshDatabase } from '../helpers/stores';

const CLOSED = '127.0.0.1:1';
let databaseUrl: string;

beforeAll(async () => {
  databaseUrl = await freshDatabase('sluice_it_health');
});

describe('console /api/health', () => {
  let healthy: ConsoleHarness;
  beforeAll(async () => {
    healthy = await consoleHarness(appEnv(databaseUrl));
  });
  afterAll(() => healthy.close());

  it('is ok with every store up, with latencies, pool figures and uptime', async () => {
    const res = await healthy.call('GET', '/api/health');
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      status: 'ok',
      services: { postgres: 'ok', redis: 'ok', clickhouse: 'ok' },
    });
    for (const key of ['pg_latency_ms', 'redis_latency_ms', 'clickhouse_latency_ms']) {
      expect(typeof body[key]).toBe('number');
    }
    expect(Number.isInteger(body.pool_idle)).toBe(true);
    expect(Number.isInteger(body.pool_active)).toBe(true);
    expect(Number.isInteger(body.uptime_seconds)).toBe(true);
  });

  it('stays ok (200) when only ClickHouse is down', async () => {
    const h = await consoleHarness(appEnv(databaseUrl, { CLICKHOUSE_URL: `http://${CLOSED}` }));
    const res = await h.call('GET', '/api/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      status: 'ok',
      clickhouse_latency_ms: null,
      services: { clickhouse: 'error' },
    });
    await h.close();
  });

  // Self-hosted the console reaches Redis itself (REDIS_URL); on Cloudflare, Upstash over REST.
  it.each([
    ['REDIS_URL', { REDIS_URL: `redis://${CLOSED}` }],
    ['Upstash REST', { REDIS_URL: '', UPSTASH_REDIS_REST_URL: `http://${CLOSED}` }],
  ])('is degraded (503) when Redis is unreachable (%s)', async (_, unreachable) => {
    const h = await consoleHarness(appEnv(databaseUrl, unreachable));
    const res = await h.call('GET', '/api/health');
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({
      status: 'degraded',
      redis_latency_ms: null,
      services: { redis: 'error' },
    });
    // The load balancer's probes answer as the gateway's do.
    const ready = await h.call('GET', '/health/ready');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'not_ready', reason: 'cache unreachable' });
    expect(await (await h.call('GET', '/health/live')).json()).toEqual({ status: 'alive' });
    await h.close();
  });

  it('answers the gateway’s probes: /health, /health/live, /health/ready', async () => {
    expect(await (await healthy.call('GET', '/health')).json()).toEqual({ status: 'ok' });
    expect(await (await healthy.call('GET', '/health/live')).json()).toEqual({ status: 'alive' });
    const ready = await healthy.call('GET', '/health/ready');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
  });
});

describe('gateway /health/ready', () => {
  it('is not_ready (503) when Redis is unreachable', async () => {
    const gw = gatewayHarness(appEnv(databaseUrl, { UPSTASH_REDIS_REST_URL: `http://${CLOSED}` }));
    const res = await gw.call('GET', '/health/ready');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'not_ready', reason: 'cache unreachable' });
  });

  // Runs last in this file: the Neon driver's endpoint configuration is process-wide.
  it('is not_ready (503) when Postgres is unreachable, and the console is degraded', async () => {
    const gw = gatewayHarness(appEnv(databaseUrl, { NEON_LOCAL_HTTP: `http://${CLOSED}/sql` }));
    const res = await gw.call('GET', '/health/ready');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'not_ready', reason: 'database unreachable' });
    // The console's pool connects to DATABASE_URL itself.
    const h = await consoleHarness(appEnv(databaseUrl, { DATABASE_URL: `postgres://postgres@${CLOSED}/x` }));
    const health = await h.call('GET', '/api/health');
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({
      status: 'degraded',
      pg_latency_ms: null,
      services: { postgres: 'error' },
    });
    await h.close();
  });
});
