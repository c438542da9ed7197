// Route caps over a sliding minute (every route capped: 429 naming the cap); routing (skip capped
// routes, inactive providers and retryable failures such as an upstream 429); direct
// `provider/model` addressing and console changes reaching a running gateway.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ProxyHarness, proxyHarness } from '../helpers/proxy-harness';

let h: ProxyHarness;
const providers: Record<string, string> = {};

const chat = (model: string, text = `hello ${model}`) => ({
  model,
  messages: [{ role: 'user', content: text }],
});

async function model(name: string, routes: Array<Record<string, unknown>>) {
  const res = await h.admin('POST', '/api/admin/models', { name, routes });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string };
}

/** The providers that served a model's logged requests (provider names). */
async function servedBy(name: string, count: number): Promise<string[]> {
  return vi.waitFor(
    async () => {
      const rows = (await h.logs(1)).filter((r) => r.model === name && r.statusCode === 200);
      if (rows.length < count) throw new Error(`${rows.length} of ${count} logged requests of ${name}`);
      return rows.map((r) => r.provider ?? '').sort();
    },
    { timeout: 10_000, interval: 100 },
  );
}

beforeAll(async () => {
  h = await proxyHarness('gateway_routing');
  const list = await h.admin('GET', '/api/admin/providers');
  for (const p of list.body as Array<{ id: string; name: string }>) providers[p.name] = p.id;
});
afterAll(() => h.close());

describe('route skipping', () => {
  it('skips a route at its RPM cap and serves from the next', async () => {
    await model('m-cap-then-next', [
      { provider_id: providers['fake-openai'], upstream_model: 'test-model', rpm_cap: 1 },
      { provider_id: providers['fake-anthropic'], upstream_model: 'test-model' },
    ]);
    const first = await h.post('/v1/chat/completions', chat('m-cap-then-next', 'one'), {
      'x-sluice-cache': 'bypass',
    });
    const second = await h.post('/v1/chat/completions', chat('m-cap-then-next', 'two'), {
      'x-sluice-cache': 'bypass',
    });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(await servedBy('m-cap-then-next', 2)).toEqual(['fake-anthropic', 'fake-openai']);
  });

  it('refuses with 429 route:tokens/1m once the only route has used its TPM cap', async () => {
    await model('m-tpm-capped', [
      { provider_id: providers['fake-custom'], upstream_model: 'test-model', tpm_cap: 5 },
    ]);
    const words = Array.from({ length: 20 }, (_, i) => `w${i}`).join(' ');
    expect((await h.post('/v1/chat/completions', chat('m-tpm-capped', words))).status).toBe(200);
    // Tokens are counted after the response (write-behind): ask until they have landed.
    let tries = 0;
    const refused = await vi.waitFor(
      async () => {
        const res = await h.post('/v1/chat/completions', chat('m-tpm-capped', `again ${tries++}`), {
          'x-sluice-cache': 'bypass',
        });
        expect(res.status).toBe(429);
        return res;
      },
      { timeout: 5_000, interval: 50 },
    );
    expect(await refused.json()).toEqual({
      error: { message: 'Rate limited: route:tokens/1m', type: 'rate_limit_error' },
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('skips a route whose provider is inactive', async () => {
    const inactive = await h.admin('POST', '/api/admin/providers', {
      name: 'fake-inactive',
      display_name: 'Inactive',
      provider_type: 'openai',
      base_url: 'http://127.0.0.1:9',
      api_key: 'sk-never-used',
    });
    expect(inactive.status).toBe(201);
    expect(
      (await h.admin('PATCH', `/api/admin/providers/${inactive.body.id}`, { is_active: false })).status,
    ).toBe(200);
    await model('m-inactive-first', [
      { provider_id: inactive.body.id, upstream_model: 'test-model' },
      { provider_id: providers['fake-google'], upstream_model: 'test-model' },
    ]);
    const res = await h.post('/v1/chat/completions', chat('m-inactive-first'));
    expect(res.status).toBe(200);
    expect(await servedBy('m-inactive-first', 1)).toEqual(['fake-google']);
  });

  it('moves on when the upstream answers 429', async () => {
    await model('m-429-first', [
      { provider_id: providers['fake-openai'], upstream_model: 'fail-429' },
      { provider_id: providers['fake-anthropic'], upstream_model: 'test-model' },
    ]);
    const res = await h.openai.chat.completions.create({
      model: 'm-429-first',
      messages: [{ role: 'user', content: 'hello after 429' }],
    });
    expect(res.choices[0]?.message.content).toBe('echo: hello after 429');
  });
});

describe('direct addressing and console changes on a running gateway', () => {
  it('serves provider_name/upstream_model without a configured model', async () => {
    const res = await h.openai.chat.completions.create({
      model: 'fake-anthropic/test-model',
      messages: [{ role: 'user', content: 'direct' }],
    });
    expect(res.choices[0]?.message.content).toBe('echo: direct');
  });

  it('stops resolving a deleted provider’s models on the next request', async () => {
    const doomed = await h.admin('POST', '/api/admin/providers', {
      name: 'fake-doomed',
      display_name: 'Doomed',
      provider_type: 'openai',
      base_url: h.fakes.baseUrlFor('openai'),
      api_key: h.fakes.apiKeyFor('openai'),
    });
    await model('m-doomed', [{ provider_id: doomed.body.id, upstream_model: 'test-model' }]);
    expect((await h.post('/v1/chat/completions', chat('m-doomed'))).status).toBe(200);
    expect((await h.admin('DELETE', `/api/admin/providers/${doomed.body.id}`)).status).toBe(204);
    // The delete moved the routing version: the next admission finds its cached route stale.
    const gone = await h.post('/v1/chat/completions', chat('m-doomed', 'after delete'));
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ error: { message: 'Model not found', type: 'not_found_error' } });
    expect((await h.post('/v1/chat/completions', chat('fake-doomed/test-model'))).status).toBe(404);
  });
});
