// POST /v1/messages/count_tokens — exact from the vendor for anthropic-type routes, a
// documented estimate for the others (or when the vendor cannot be reached); one request
// against the limits, never tokens; logged at no cost. The official Anthropic SDK against the
// gateway app, real Postgres/Redis/ClickHouse, fake upstreams.
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateInputTokens } from '../../shared/src/proxy/estimate-tokens';
import { type ProxyHarness, proxyHarness } from '../helpers/proxy-harness';

let h: ProxyHarness;
const ENDPOINT = '/v1/messages/count_tokens';
const messages = [{ role: 'user' as const, content: 'how many tokens are these seven words' }];

beforeAll(async () => {
  h = await proxyHarness('count_tokens');
  const providers = (await h.admin('GET', '/api/admin/providers')).body as Array<{
    id: string;
    name: string;
  }>;
  const anthropic = providers.find((p) => p.name === 'fake-anthropic')?.id;
  // An anthropic route whose vendor answers 503: the count falls back to the estimate.
  const failing = await h.admin('POST', '/api/admin/models', {
    name: 'm-count-down',
    routes: [{ provider_id: anthropic, upstream_model: 'fail-503' }],
  });
  expect(failing.status).toBe(201);
}, 60_000);
afterAll(() => h?.close());

const countRows = async (n: number) => (await h.logs(n)).filter((row) => row.endpoint === ENDPOINT);

describe('POST /v1/messages/count_tokens', () => {
  it("is the vendor's exact count on an anthropic route (the SDK's messages.countTokens)", async () => {
    const counted = await h.anthropic.messages.countTokens({ model: 'm-anthropic', messages });
    expect(counted).toEqual({ input_tokens: 7 });
    const res = await h.post(ENDPOINT, { model: 'm-anthropic', messages });
    expect(res.headers.get('x-sluice-token-count')).toBe('exact');
    const upstream = h.fakes.requests.filter((r) => r.path === '/anthropic/v1/messages/count_tokens');
    expect(upstream.at(-1)?.body).toEqual({ model: 'test-model', messages });
  });

  it('is the documented estimate for other provider types, and when the vendor cannot count', async () => {
    const body = { model: 'm-openai', system: 'Be brief.', messages };
    for (const model of ['m-openai', 'm-google', 'm-bedrock', 'm-count-down']) {
      const res = await h.post(ENDPOINT, { ...body, model });
      expect(res.status, model).toBe(200);
      expect(res.headers.get('x-sluice-token-count')).toBe('estimate');
      expect(await res.json()).toEqual({ input_tokens: estimateInputTokens(body) });
    }
  });

  it('is logged at 0 tokens and no cost, with the route that counted', async () => {
    const rows = await countRows(6);
    const exact = rows.find((r) => r.model === 'm-anthropic');
    expect(exact).toMatchObject({
      statusCode: 200,
      stream: false,
      provider: 'fake-anthropic',
      promptTokens: 0,
      completionTokens: 0,
      costUsd: 0,
      attempts: 1,
    });
    expect(rows.find((r) => r.model === 'm-count-down')).toMatchObject({ statusCode: 200, attempts: 1 });
    expect(rows.find((r) => r.model === 'm-openai')).toMatchObject({ statusCode: 200, attempts: 0 });
  });

  it("passes the vendor's refusal of a bad body on, in the Messages error envelope", async () => {
    const res = await h.post(ENDPOINT, {
      model: 'm-anthropic',
      messages: [{ role: 'assistant', content: 'x' }],
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });

  it('refuses what the gateway itself can tell: no messages, an unknown model, a model not allowed', async () => {
    const missing = await h.post(ENDPOINT, { model: 'm-anthropic' });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    const unknown = await h.anthropic.messages
      .countTokens({ model: 'm-nowhere', messages })
      .catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(Anthropic.NotFoundError);
    const key = await h.admin('POST', '/api/keys', { name: 'only openai', allowed_models: ['m-openai'] });
    const limited = await h.gateway.app.request(ENDPOINT, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.body.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm-anthropic', messages }),
    });
    expect(limited.status).toBe(403);
  });

  it('counts as one request against the limits, and never as tokens', async () => {
    const rules = await h.admin('PUT', `/api/admin/limits/api_key/${h.keyId}/rules`, {
      rules: [
        { kind: 'requests', window: '1h', limit: 30 },
        { kind: 'tokens', window: '1h', limit: 1_000_000 },
      ],
    });
    expect(rules.status).toBe(200);
    const report = async () =>
      (await (
        await h.gateway.app.request('/v1/usage', { headers: { authorization: `Bearer ${h.apiKey}` } })
      ).json()) as {
        limits: Array<{ kind: string; used: number }>;
      };
    const used = (r: Awaited<ReturnType<typeof report>>, kind: string) =>
      r.limits.find((l) => l.kind === kind)?.used;
    const start = await report();
    for (let i = 0; i < 3; i++)
      expect((await h.post(ENDPOINT, { model: 'm-anthropic', messages })).status).toBe(200);
    const after = await report();
    expect(used(after, 'requests')).toBe((used(start, 'requests') ?? 0) + 3);
    expect(used(after, 'tokens')).toBe(used(start, 'tokens'));
  });
});
