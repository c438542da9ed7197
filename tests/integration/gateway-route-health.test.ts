// Routing health: a route that fails (here: its provider refuses connections, through
// a fault proxy) 2 times within the window is benched — skipped without an upstream call, the
// next route serving — for a cool-down; then probed: a failed probe benches it for twice as
// long, a successful one clears it. With every route benched the gateway answers 503 at once
// with Retry-After. The state is in Redis (every isolate sees it), in the console and in
// /metrics. Real Postgres/Redis, fake upstreams behind a TCP fault proxy.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FaultProxy, startFaultProxy } from '../fakes/fault-proxy';
import { FAKE_API_KEYS } from '../fakes/server';
import { type GatewayHarness, gatewayHarness } from '../helpers/gateway';
import { type ProxyHarness, proxyHarness } from '../helpers/proxy-harness';

const COOLDOWN_MS = 1_500;
let h: ProxyHarness;
let second: GatewayHarness;
let outage: FaultProxy;

const chat = (model: string, gateway?: GatewayHarness) =>
  (gateway ?? h.gateway).app.request('/v1/chat/completions', {
    method: 'POST',
    // No response cache: every request must go upstream (or be refused) on its own.
    headers: {
      authorization: `Bearer ${h.apiKey}`,
      'content-type': 'application/json',
      'cache-control': 'no-store',
    },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hello there' }] }),
  });

/** Whether a request reached the flaky provider (a connection through the fault proxy). */
async function reachesFlaky(
  model: string,
  gateway?: GatewayHarness,
): Promise<{ reached: boolean; res: Response }> {
  const before = outage.accepted;
  const res = await chat(model, gateway);
  return { reached: outage.accepted > before, res };
}

const health = async () =>
  (await h.admin('GET', '/api/admin/models/route-health')).body as Array<{ model: string; state: string }>;

beforeAll(async () => {
  // Cool-downs run on the gateway's clock (Date.now, taken when the gateway is built and handed
  // to the bench script): a clock that moves with real time, which a test moves past a
  // cool-down rather than waiting it out.
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  h = await proxyHarness('route_health', {
    SLUICE_ROUTE_BENCH_FAILURES: '2',
    SLUICE_ROUTE_BENCH_WINDOW_MS: '20000',
    SLUICE_ROUTE_BENCH_COOLDOWN_MS: String(COOLDOWN_MS),
    SLUICE_ROUTE_BENCH_MAX_COOLDOWN_MS: '60000',
  });
  second = gatewayHarness(h.gateway.env);
  const upstream = new URL(h.fakes.url);
  outage = await startFaultProxy({ host: upstream.hostname, port: Number(upstream.port) });
  const providers = (await h.admin('GET', '/api/admin/providers')).body as Array<{
    id: string;
    name: string;
  }>;
  const flaky = await h.admin('POST', '/api/admin/providers', {
    name: 'flaky',
    display_name: 'Flaky',
    provider_type: 'openai',
    base_url: outage.rewrite(h.fakes.baseUrlFor('openai')),
    api_key: FAKE_API_KEYS.openai,
  });
  expect(flaky.status).toBe(201);
  const anthropic = providers.find((p) => p.name === 'fake-anthropic')?.id;
  const route = (provider_id: string | undefined) => ({ provider_id, upstream_model: 'test-model' });
  for (const [name, routes] of [
    ['m-flaky', [route(flaky.body.id), route(anthropic)]],
    ['m-flaky-only', [route(flaky.body.id)]],
  ] as const) {
    expect((await h.admin('POST', '/api/admin/models', { name, routes })).status).toBe(201);
  }
}, 60_000);
afterAll(async () => {
  vi.useRealTimers();
  await outage?.close();
  await h?.close();
});

describe('route benching', () => {
  it('benches a route after 2 failures: the next requests skip it without a call, another gateway too', async () => {
    outage.setMode('refuse');
    for (let i = 0; i < 2; i++) {
      const { reached, res } = await reachesFlaky('m-flaky');
      expect(reached).toBe(true);
      expect(res.status).toBe(200); // the next route served
    }
    await vi.waitFor(
      async () => {
        const { reached, res } = await reachesFlaky('m-flaky');
        expect(res.status).toBe(200);
        expect(reached).toBe(false);
      },
      { timeout: 5_000, interval: 50 },
    );
    // Another instance (its own isolate caches) learns the bench from Redis.
    await vi.waitFor(async () => expect((await reachesFlaky('m-flaky', second)).reached).toBe(false), {
      timeout: 5_000,
      interval: 50,
    });
    // The console reads the store's copy: there once the gateway's flush has carried the failures.
    await vi.waitFor(
      async () =>
        expect(await health()).toEqual([expect.objectContaining({ model: 'm-flaky', state: 'benched' })]),
      { timeout: 5_000, interval: 50 },
    );
    const metrics = await (await h.gateway.app.request('/metrics')).text();
    expect(metrics).toMatch(/sluice_route_state\{model="m-flaky",provider="flaky",route_id="[0-9a-f-]+"\} 1/);
  });

  it('answers 503 with Retry-After at once when every route of the model is benched', async () => {
    // Benching is per route: this model's route to the same provider has its own count.
    for (let i = 0; i < 2; i++) expect((await chat('m-flaky-only')).status).toBe(502);
    await vi.waitFor(async () => expect((await reachesFlaky('m-flaky-only')).reached).toBe(false), {
      timeout: 3_000,
      interval: 50,
    });
    const res = await chat('m-flaky-only');
    expect(res.status).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await res.json()).toMatchObject({ error: { message: expect.stringContaining('benched') } });
  });

  it('probes after the cool-down: a failed probe benches it again for twice as long', async () => {
    const pastOneCooldown = () => vi.setSystemTime(Date.now() + COOLDOWN_MS + 200);
    pastOneCooldown();
    expect((await reachesFlaky('m-flaky')).reached).toBe(true); // the probe, which fails
    await vi.waitFor(async () => expect((await reachesFlaky('m-flaky')).reached).toBe(false), {
      timeout: 3_000,
      interval: 50,
    });
    // Past one cool-down it is still benched: the second lasts twice as long.
    pastOneCooldown();
    expect((await reachesFlaky('m-flaky')).reached).toBe(false);
  });

  it('clears the route when a probe succeeds: it serves again, first', async () => {
    outage.setMode('pass');
    vi.setSystemTime(Date.now() + 2 * COOLDOWN_MS); // past the doubled cool-down: a probe is due
    await vi.waitFor(async () => expect((await reachesFlaky('m-flaky')).reached).toBe(true), {
      timeout: 8_000,
      interval: 200,
    });
    await vi.waitFor(async () => expect((await health()).map((r) => r.model)).not.toContain('m-flaky'), {
      timeout: 3_000,
      interval: 100,
    });
    // Connections are reused now: count what the fake OpenAI behind the proxy answered.
    const answered = () => h.fakes.requests.filter((r) => r.vendor === 'openai').length;
    const before = answered();
    expect((await chat('m-flaky')).status).toBe(200);
    expect(answered()).toBe(before + 1);
    await vi.waitFor(
      async () => {
        const rows = await h.logs(1);
        const byFlaky = rows.filter((r) => r.model === 'm-flaky' && r.provider === 'flaky');
        expect(byFlaky.some((r) => r.statusCode === 200 && r.attempts === 1)).toBe(true);
      },
      { timeout: 5_000, interval: 100 },
    );
    const metrics = await (await h.gateway.app.request('/metrics')).text();
    expect(metrics).not.toMatch(/sluice_route_state\{model="m-flaky"/);
  });

  it('a burst against a dead route tries it at most the policy’s count plus one, before any flush', async () => {
    const providers = (await h.admin('GET', '/api/admin/providers')).body as Array<{
      id: string;
      name: string;
    }>;
    const openai = providers.find((p) => p.name === 'fake-openai')?.id;
    const created = await h.admin('POST', '/api/admin/models', {
      name: 'm-dead',
      routes: [{ provider_id: openai, upstream_model: 'dead-fail-503' }],
    });
    expect(created.status).toBe(201);
    await vi.waitFor(async () => expect((await chat('m-dead')).status).not.toBe(404), { timeout: 5_000 });
    const tried = () =>
      h.fakes.requests.filter((r) => (r.body as { model?: string })?.model === 'dead-fail-503').length;
    const before = tried();
    const statuses: number[] = [];
    // Back to back, as a busy client sends them: no time for a write-behind flush in between.
    for (let i = 0; i < 40; i++) statuses.push((await chat('m-dead')).status);
    // SLUICE_ROUTE_BENCH_FAILURES is 2 here.
    expect(tried() - before).toBeLessThanOrEqual(3);
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThanOrEqual(37);
  });
});
