// POST /v1/embeddings through the gateway — the official openai SDK's
// embeddings.create (float, and its default base64) against fake upstreams of every provider
// type that has an embeddings API; models of kind `embedding`; limits, log rows, cost,
// fallback, the response cache and analytics by endpoint. Real Postgres/Redis/ClickHouse.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RequestLogRecord } from '../../shared/src/logs/requests/record';
import { estimateEmbeddingTokens } from '../../shared/src/proxy/estimate-tokens';
import { fakeEmbeddingTokens, fakeTokenVector, fakeVector } from '../fakes/embeddings';
import { type ProxyHarness, proxyHarness } from '../helpers/proxy-harness';

let h: ProxyHarness;
const ENDPOINT = '/v1/embeddings';
const INPUT_PRICE = 2; // USD per million input tokens

/** Embedding models, one per provider type (Bedrock: both families), and what their vendor counts. */
const MODELS: Array<{ name: string; type: string; upstream: string; counts: boolean }> = [
  { name: 'e-openai', type: 'openai', upstream: 'text-embedding-3-small', counts: true },
  { name: 'e-azure', type: 'azure_openai', upstream: 'text-embedding-3-small', counts: true },
  { name: 'e-custom', type: 'custom', upstream: 'bge-small', counts: true },
  { name: 'e-google', type: 'google', upstream: 'text-embedding-004', counts: false },
  { name: 'e-titan', type: 'bedrock', upstream: 'amazon.titan-embed-text-v2:0', counts: true },
  { name: 'e-cohere', type: 'bedrock', upstream: 'cohere.embed-english-v3', counts: true },
];
const texts = ['the first passage to embed', 'a second one'];

beforeAll(async () => {
  h = await proxyHarness('embeddings');
  const providers = (await h.admin('GET', '/api/admin/providers')).body as Array<{
    id: string;
    provider_type: string;
  }>;
  const providerOf = (type: string) => providers.find((p) => p.provider_type === type)?.id;
  const model = (name: string, routes: Array<[string, string]>) =>
    h.admin('POST', '/api/admin/models', {
      name,
      kind: 'embedding',
      // No output price: an embedding model's input price alone prices it.
      input_price_per_mtok: INPUT_PRICE,
      routes: routes.map(([type, upstream]) => ({ provider_id: providerOf(type), upstream_model: upstream })),
    });
  for (const m of MODELS) expect((await model(m.name, [[m.type, m.upstream]])).status).toBe(201);
  expect(
    (
      await model('e-failover', [
        ['openai', 'fail-503'],
        ['google', 'text-embedding-004'],
      ])
    ).status,
  ).toBe(201);
}, 60_000);
afterAll(() => h?.close());

/** The first embeddings row that matches, once it has been written. */
const rowWhere = (matches: (row: RequestLogRecord) => boolean) =>
  vi.waitFor(
    async () => {
      const row = (await h.logs(1)).find((r) => r.endpoint === ENDPOINT && matches(r));
      if (!row) throw new Error('no such request log row yet');
      return row;
    },
    { timeout: 10_000, interval: 100 },
  );

describe('POST /v1/embeddings with the official openai SDK', () => {
  it.each(MODELS)('$name ($type): float vectors in input order, with usage', async (m) => {
    const result = await h.openai.embeddings.create({
      model: m.name,
      input: texts,
      encoding_format: 'float',
    });
    expect(result.object).toBe('list');
    expect(result.model).toBe(m.name);
    expect(result.data.map((d) => d.index)).toEqual([0, 1]);
    expect(result.data.map((d) => d.embedding)).toEqual(texts.map((t) => fakeVector(t)));
    const tokens = m.counts ? fakeEmbeddingTokens(texts) : estimateEmbeddingTokens({ kind: 'text', texts });
    expect(result.usage).toEqual({ prompt_tokens: tokens, total_tokens: tokens });
  });

  it.each(MODELS)('$name ($type): the SDK default (base64) decodes to the same vectors', async (m) => {
    const result = await h.openai.embeddings.create({ model: m.name, input: texts[0] as string });
    expect(result.data).toHaveLength(1);
    expect(result.data[0]?.embedding).toEqual(fakeVector(texts[0] as string));
  });

  it('passes dimensions on, and token-id input to OpenAI-type routes', async () => {
    const short = await h.openai.embeddings.create({ model: 'e-openai', input: 'shorter', dimensions: 4 });
    expect(short.data[0]?.embedding).toEqual(fakeVector('shorter', 4));
    const google = await h.openai.embeddings.create({ model: 'e-google', input: 'shorter', dimensions: 4 });
    expect(google.data[0]?.embedding).toEqual(fakeVector('shorter', 4));
    const ids = await h.openai.embeddings.create({ model: 'e-openai', input: [[1, 2, 3], [4]] });
    expect(ids.data.map((d) => d.embedding)).toEqual([fakeTokenVector([1, 2, 3]), fakeTokenVector([4])]);
  });

  it('embeds many inputs on a one-input-per-call vendor (Titan), in input order', async () => {
    const many = Array.from({ length: 20 }, (_, i) => `passage number ${i}`);
    const result = await h.openai.embeddings.create({
      model: 'e-titan',
      input: many,
      encoding_format: 'float',
    });
    expect(result.data.map((d) => d.embedding)).toEqual(many.map((t) => fakeVector(t)));
    expect(result.usage.prompt_tokens).toBe(fakeEmbeddingTokens(many));
  });

  it('says whether the token count is the vendor’s or the estimate', async () => {
    const exact = await h.post(ENDPOINT, { model: 'e-openai', input: 'x' });
    expect(exact.headers.get('x-sluice-token-count')).toBe('exact');
    const estimated = await h.post(ENDPOINT, { model: 'e-google', input: 'x' });
    expect(estimated.headers.get('x-sluice-token-count')).toBe('estimate');
  });

  it('falls back to the next route when the first fails', async () => {
    const result = await h.openai.embeddings.create({
      model: 'e-failover',
      input: 'fall back',
      encoding_format: 'float',
    });
    expect(result.data[0]?.embedding).toEqual(fakeVector('fall back'));
    const row = await rowWhere((r) => r.model === 'e-failover');
    expect(row).toMatchObject({ statusCode: 200, attempts: 2, provider: 'fake-google' });
  });
});

describe('models of kind embedding', () => {
  it('refuses chat on an embedding model and embeddings on a chat model, in the OpenAI envelope', async () => {
    const chat = await h.openai.chat.completions
      .create({ model: 'e-openai', messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error);
    expect(chat).toBeInstanceOf(OpenAI.BadRequestError);
    expect((chat as Error).message).toContain('embedding model');
    const embed = await h.post(ENDPOINT, { model: 'm-openai', input: 'x' });
    expect(embed.status).toBe(400);
    expect(await embed.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    const messages = await h.post('/v1/messages', {
      model: 'e-openai',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(messages.status).toBe(400);
    expect(await messages.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });

  it('refuses token-id input where no route takes it, and a bad body, with a 400 naming why', async () => {
    const ids = await h.post(ENDPOINT, { model: 'e-google', input: [1, 2, 3] });
    expect(ids.status).toBe(400);
    expect(((await ids.json()) as { error: { message: string } }).error.message).toContain('token-id');
    const empty = await h.post(ENDPOINT, { model: 'e-openai', input: [] });
    expect(empty.status).toBe(400);
    const unknown = await h.openai.embeddings
      .create({ model: 'e-nowhere', input: 'x' })
      .catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('are listed with their kind in /v1/models', async () => {
    const list = await h.openai.models.list();
    const kinds = Object.fromEntries(list.data.map((m) => [m.id, (m as unknown as { kind: string }).kind]));
    expect(kinds['e-titan']).toBe('embedding');
    expect(kinds['m-openai']).toBe('chat');
  });
});

describe('accounting', () => {
  it('logs each call with its input tokens and their cost at the input price', async () => {
    const titan = await rowWhere(
      (r) => r.model === 'e-titan' && r.promptTokens === fakeEmbeddingTokens(texts),
    );
    expect(titan).toMatchObject({
      statusCode: 200,
      stream: false,
      provider: 'fake-bedrock',
      upstreamModel: 'amazon.titan-embed-text-v2:0',
      completionTokens: 0,
      attempts: 1,
    });
    expect(titan?.costUsd).toBeCloseTo((fakeEmbeddingTokens(texts) * INPUT_PRICE) / 1e6, 12);
    const models = (await h.admin('GET', '/api/admin/models')).body as Array<{
      name: string;
      is_priced: boolean;
    }>;
    expect(models.find((m) => m.name === 'e-titan')?.is_priced).toBe(true);
  });

  it('counts a request and its input tokens against the limits (/v1/usage)', async () => {
    const rules = await h.admin('PUT', `/api/admin/limits/api_key/${h.keyId}/rules`, {
      rules: [
        { kind: 'requests', window: '1h', limit: 1000 },
        { kind: 'tokens', window: '1h', limit: 1_000_000 },
      ],
    });
    expect(rules.status).toBe(200);
    const used = async (kind: string) => {
      const res = await h.gateway.app.request('/v1/usage', {
        headers: { authorization: `Bearer ${h.apiKey}` },
      });
      const body = (await res.json()) as { limits: Array<{ kind: string; used: number }> };
      return body.limits.find((l) => l.kind === kind)?.used ?? 0;
    };
    const [requestsBefore, tokensBefore] = [await used('requests'), await used('tokens')];
    await h.openai.embeddings.create({ model: 'e-openai', input: texts });
    await expect
      .poll(() => used('tokens'), { timeout: 5_000 })
      .toBe(tokensBefore + fakeEmbeddingTokens(texts));
    expect(await used('requests')).toBe(requestsBefore + 1);
  });

  it('answers a repeated request from the response cache, logged as a hit at no cost', async () => {
    expect(
      (await h.admin('PATCH', '/api/admin/settings', { settings: { cache_ttl_seconds: 60 } })).status,
    ).toBe(200);
    const body = { model: 'e-custom', input: 'cache me', encoding_format: 'float' };
    await expect
      .poll(async () => (await h.post(ENDPOINT, body)).headers.get('x-sluice-cache'), { timeout: 5_000 })
      .toBe('HIT');
    const hit = await h.post(ENDPOINT, body);
    expect(((await hit.json()) as { data: Array<{ embedding: number[] }> }).data[0]?.embedding).toEqual(
      fakeVector('cache me'),
    );
    expect(await rowWhere((r) => r.model === 'e-custom' && r.cacheHit)).toMatchObject({
      costUsd: 0,
      statusCode: 200,
    });
    await h.admin('PATCH', '/api/admin/settings', { settings: { cache_ttl_seconds: 0 } });
  });

  it('shows in the analytics by endpoint, with its cost', async () => {
    const range = {
      from: new Date(Date.now() - 3_600_000).toISOString(),
      to: new Date(Date.now() + 60_000).toISOString(),
    };
    const query = new URLSearchParams(range).toString();
    await rowWhere((r) => r.cacheHit);
    const usage = await h.admin('GET', `/api/analytics/usage/stats?${query}`);
    expect(usage.status).toBe(200);
    expect(usage.body.endpoints[ENDPOINT].requests).toBeGreaterThan(10);
    const costs = await h.admin('GET', `/api/analytics/costs/stats?${query}`);
    expect(costs.body.by_endpoint[ENDPOINT]).toBeGreaterThan(0);
  });
});
