// Limits that never overshoot: admission reserves what a request may use (its prompt,
// estimated, and its max_tokens) on token rules and budgets; the settlement gives it back and
// counts the real tokens; a failed or abandoned request gives it back too. Two gateways (two
// isolates' worth of caches and batching) over the same real Postgres/Redis, the official
// openai SDK, fake upstreams that answer slowly on command.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type GatewayHarness, gatewayHarness } from '../helpers/gateway';
import { type ProxyHarness, proxyHarness } from '../helpers/proxy-harness';

let h: ProxyHarness;
let second: GatewayHarness;
/** Four words (18 characters: 5 tokens, and 3 for the message) and 12 output tokens: 20 reserved. */
const PROMPT = [{ role: 'user' as const, content: 'one two three four' }];
const RESERVED = 20;
/** Ten reservations fit, not eleven: what is left after ten is held, not used up. */
const BUDGET = 10 * RESERVED + 10;

function sdkFor(gateway: GatewayHarness): OpenAI {
  const fetchApp = ((input: string | URL | Request, init?: RequestInit) =>
    gateway.app.request(input instanceof Request ? input : String(input), init)) as typeof fetch;
  return new OpenAI({ apiKey: h.apiKey, baseURL: 'http://gateway.test/v1', fetch: fetchApp, maxRetries: 0 });
}

/** The key's daily budget as /v1/usage reports it (what the budget counter holds). */
async function dailyUsed(): Promise<number> {
  const res = await h.gateway.app.request('/v1/usage', { headers: { authorization: `Bearer ${h.apiKey}` } });
  const body = (await res.json()) as { limits: Array<{ window: string; used: number }> };
  return body.limits.find((l) => l.window === 'daily')?.used ?? Number.NaN;
}

beforeAll(async () => {
  h = await proxyHarness('reservations');
  second = gatewayHarness(h.gateway.env);
  const providers = (await h.admin('GET', '/api/admin/providers')).body as Array<{
    id: string;
    name: string;
  }>;
  const openai = providers.find((p) => p.name === 'fake-openai')?.id;
  for (const [name, upstream] of [
    ['m-slow-reserve', 'slow-400'],
    ['m-failing-reserve', 'fail-500'],
  ] as const) {
    const created = await h.admin('POST', '/api/admin/models', {
      name,
      routes: [{ provider_id: openai, upstream_model: upstream }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  }
  const budget = await h.admin('PUT', `/api/admin/limits/api_key/${h.keyId}/budgets`, {
    budgets: [{ period: 'daily', limit_tokens: BUDGET }],
  });
  expect(budget.status, JSON.stringify(budget.body)).toBe(200);
}, 60_000);
afterAll(() => h?.close());

describe('reservations on token budgets', () => {
  it('100 concurrent requests across two gateways against a budget that fits 10: 10 answered, 90 refused', async () => {
    const clients = [sdkFor(h.gateway), sdkFor(second)];
    const outcomes = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        clients[i % 2]!.chat.completions.create(
          { model: 'm-slow-reserve', messages: PROMPT, max_tokens: 12 },
          { headers: { 'cache-control': 'no-store' } },
        ).then(
          (answer) => ({ ok: true as const, tokens: answer.usage?.total_tokens ?? Number.NaN }),
          (error: unknown) => ({ ok: false as const, error }),
        ),
      ),
    );
    const answered = outcomes.flatMap((o) => (o.ok ? [o] : []));
    const refused = outcomes.flatMap((o) => (o.ok ? [] : [o.error]));
    expect(answered).toHaveLength(10);
    expect(refused).toHaveLength(90);
    for (const error of refused) {
      expect(error).toBeInstanceOf(OpenAI.RateLimitError);
      const rateLimited = error as InstanceType<typeof OpenAI.RateLimitError>;
      expect(rateLimited.message).toContain('key:budget/daily');
      // Held by what the ten in flight reserved, which comes back as they finish.
      expect(rateLimited.headers?.get('retry-after')).toBe('2');
    }
    // Settled: the reservations are gone and the budget holds what the ten really used.
    const used = answered.reduce((sum, a) => sum + a.tokens, 0);
    expect(used).toBeLessThan(BUDGET);
    await vi.waitFor(async () => expect(await dailyUsed()).toBe(used), { timeout: 10_000, interval: 100 });
  });

  it('a failed request and a stream the client abandons give their reservations back', async () => {
    // A raised budget holds at once (the refusals the gateways remember go with the old one).
    const raised = await h.admin('PUT', `/api/admin/limits/api_key/${h.keyId}/budgets`, {
      budgets: [{ period: 'daily', limit_tokens: 10 * BUDGET }],
    });
    expect(raised.status).toBe(200);
    const before = await dailyUsed();
    const sdk = sdkFor(h.gateway);
    await expect(
      sdk.chat.completions.create({ model: 'm-failing-reserve', messages: PROMPT, max_tokens: 12 }),
    ).rejects.toBeInstanceOf(OpenAI.APIError);
    const controller = new AbortController();
    const stream = await sdk.chat.completions.create(
      { model: 'm-slow-reserve', messages: PROMPT, max_tokens: 12, stream: true },
      { signal: controller.signal, headers: { 'cache-control': 'no-store' } },
    );
    controller.abort();
    await expect(
      (async () => {
        for await (const _ of stream) {
          // nothing arrives: the client left first
        }
      })(),
    ).rejects.toThrow();
    // Nothing was used by either: the budget is back where it was.
    await vi.waitFor(async () => expect(await dailyUsed()).toBe(before), { timeout: 10_000, interval: 100 });
  });
});
