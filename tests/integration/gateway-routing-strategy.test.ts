// Routing: a model's strategy picks each request's first route — `weighted` in
// proportion to the routes' weights, `least_latency` the route that answers fastest — the
// others staying its fallbacks; set and read through the console. Real Postgres/Redis, fake
// upstreams (whose model names make them slow on command).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProxyHarness, proxyHarness } from '../helpers/proxy-harness';

let h: ProxyHarness;
const providerIds: Record<string, string> = {};

/** A chat request that always reaches an upstream (no response cache). */
const chat = (model: string) =>
  h.post(
    '/v1/chat/completions',
    { model, messages: [{ role: 'user', content: 'which route' }] },
    { 'cache-control': 'no-store' },
  );

/** How many upstream calls each fake vendor got while `run` ran. */
async function callsDuring(run: () => Promise<void>): Promise<Record<string, number>> {
  const before = h.fakes.requests.length;
  await run();
  const counts: Record<string, number> = {};
  for (const request of h.fakes.requests.slice(before))
    counts[request.vendor] = (counts[request.vendor] ?? 0) + 1;
  return counts;
}

beforeAll(async () => {
  h = await proxyHarness('routing_strategy');
  const providers = (await h.admin('GET', '/api/admin/providers')).body as Array<{
    id: string;
    name: string;
  }>;
  for (const p of providers) providerIds[p.name] = p.id;
}, 60_000);
afterAll(() => h?.close());

describe('routing strategies', () => {
  it('weighted: the first route is drawn in proportion to the weights, the other stays a fallback', async () => {
    const created = await h.admin('POST', '/api/admin/models', {
      name: 'm-weighted',
      strategy: 'weighted',
      routes: [
        { provider_id: providerIds['fake-openai'], upstream_model: 'test-model', weight: 3 },
        { provider_id: providerIds['fake-custom'], upstream_model: 'test-model', weight: 1 },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.strategy).toBe('weighted');
    const counts = await callsDuring(async () => {
      for (let i = 0; i < 200; i++) expect((await chat('m-weighted')).status).toBe(200);
    });
    expect((counts.openai ?? 0) + (counts.custom ?? 0)).toBe(200);
    // 150 expected; 3.5 standard deviations either side.
    expect(counts.openai).toBeGreaterThan(128);
    expect(counts.openai).toBeLessThan(172);
  });

  it('least_latency: once measured, requests go to the route that answers fastest', async () => {
    const created = await h.admin('POST', '/api/admin/models', {
      name: 'm-fastest',
      strategy: 'least_latency',
      routes: [
        { provider_id: providerIds['fake-openai'], upstream_model: 'slow-150', weight: 1 },
        { provider_id: providerIds['fake-custom'], upstream_model: 'test-model', weight: 1 },
      ],
    });
    expect(created.status).toBe(201);
    // Each route is measured first (unmeasured routes go first).
    for (let i = 0; i < 4; i++) expect((await chat('m-fastest')).status).toBe(200);
    const counts = await callsDuring(async () => {
      for (let i = 0; i < 60; i++) expect((await chat('m-fastest')).status).toBe(200);
    });
    // All but the few exploring requests (5 %) go to the fast route.
    expect(counts.custom ?? 0).toBeGreaterThanOrEqual(50);
  });

  it('is changed through the console and refused when unknown', async () => {
    const models = (await h.admin('GET', '/api/admin/models')).body as Array<{
      id: string;
      name: string;
    }>;
    const id = models.find((m) => m.name === 'm-weighted')?.id;
    const changed = await h.admin('PATCH', `/api/admin/models/${id}`, { strategy: 'ordered' });
    expect(changed.body.strategy).toBe('ordered');
    const refused = await h.admin('PATCH', `/api/admin/models/${id}`, { strategy: 'random' });
    expect(refused.status).toBe(422);
    // Ordered again: every request goes to the first route.
    const counts = await callsDuring(async () => {
      for (let i = 0; i < 20; i++) expect((await chat('m-weighted')).status).toBe(200);
    });
    expect(counts).toEqual({ openai: 20 });
  });
});
