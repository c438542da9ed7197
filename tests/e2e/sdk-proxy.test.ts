// The model proxy end to end, over real HTTP against the stack as `npm start` runs it (the worker
// in workerd): the official OpenAI and Anthropic SDKs, unmodified, with a Sluice key, against every
// provider type, streaming or not, with tools; every call in the request log.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { fakeVector } from '../fakes/embeddings';
import { type FakeUpstreams, startFakeUpstreams } from '../fakes/server';
import { e2eRequestLogStore } from '../helpers/e2e-request-logs';
import {
  type ConsoleCall,
  configureFakeProviders,
  expectedCost,
  FAKE_PROVIDER_TYPES,
  type FakeProviderType,
  PROVIDER_VENDORS,
} from '../helpers/fake-providers';
import { adminConsole } from '../helpers/first-run';
import { readUntil } from '../helpers/stream-reading';

const { gatewayUrl, consoleUrl } = inject('stack');
let fakes: FakeUpstreams;
let openai: OpenAI;
let anthropic: Anthropic;
let keyId: string;
let adminApi: ConsoleCall;
let calls = 0;
const lookup = {
  name: 'lookup',
  description: 'Looks a word up',
  parameters: { type: 'object' as const, properties: { query: { type: 'string' } }, required: ['query'] },
};

beforeAll(async () => {
  fakes = await startFakeUpstreams();
  adminApi = await adminConsole(consoleUrl);
  await configureFakeProviders(adminApi, fakes);
  const key = await adminApi('POST', '/api/keys', { name: 'sdk e2e' });
  keyId = key.body.id;
  openai = new OpenAI({ apiKey: key.body.key, baseURL: `${gatewayUrl}/v1`, maxRetries: 0 });
  anthropic = new Anthropic({ apiKey: key.body.key, baseURL: gatewayUrl, maxRetries: 0 });
});
afterAll(() => fakes?.close());

describe.each(FAKE_PROVIDER_TYPES)('official SDKs through the running gateway to %s', (type) => {
  const model = `m-${type}`;
  const messages = [{ role: 'user' as const, content: `hi ${type}` }];

  it('openai: chat.completions (plain and streamed with tools), responses.create and .stream', async () => {
    const plain = await openai.chat.completions.create({ model, messages });
    expect(plain.choices[0]?.message.content).toBe(`echo: hi ${type}`);
    const created = await openai.responses.create({ model, input: `hi ${type}` });
    expect(created.output_text).toBe(`echo: hi ${type}`);
    const final = await openai.chat.completions
      .stream({ model, messages, tools: [{ type: 'function', function: lookup }] })
      .finalChatCompletion();
    const call = final.choices[0]?.message.tool_calls?.[0];
    expect(call?.type === 'function' && JSON.parse(call.function.arguments)).toEqual({ query: `hi ${type}` });
    const response = await openai.responses.stream({ model, input: `hi ${type}` }).finalResponse();
    expect(response.output_text).toBe(`echo: hi ${type}`);
    calls += 4;
  });

  it('anthropic: messages.create and messages.stream with tools', async () => {
    const message = await anthropic.messages.create({ model, max_tokens: 50, messages });
    expect(message.content[0]).toMatchObject({ type: 'text', text: `echo: hi ${type}` });
    const tools = [{ name: lookup.name, description: lookup.description, input_schema: lookup.parameters }];
    const streamed = await anthropic.messages
      .stream({ model, max_tokens: 50, tools, messages })
      .finalMessage();
    expect(streamed.content.find((b) => b.type === 'tool_use')).toMatchObject({
      input: { query: `hi ${type}` },
    });
    calls += 2;
  });
});

describe('failover and the ledger over the wire', () => {
  it('answers from the second route when the first returns 503', async () => {
    const res = await openai.chat.completions.create({
      model: 'm-failover',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(res.choices[0]?.message.content).toBe('echo: x');
    calls += 1;
  });

  it('has every call in the request log with correct tokens and cost', async () => {
    const rows = await vi.waitFor(
      async () => {
        const found = (await e2eRequestLogStore().list({ apiKeyId: keyId, limit: 200 })).filter(
          (r) => !r.clientAborted,
        );
        if (found.length < calls) throw new Error(`${found.length} of ${calls} rows`);
        return found;
      },
      { timeout: 15_000, interval: 200 },
    );
    expect(rows).toHaveLength(calls);
    for (const row of rows) {
      expect(row).toMatchObject({ statusCode: 200, unpriced: false, cacheHit: false });
      expect(row.promptTokens * row.completionTokens, JSON.stringify(row)).toBeGreaterThan(0);
      expect(row.costUsd).toBeCloseTo(expectedCost(row.promptTokens, row.completionTokens), 12);
    }
    expect(rows.find((r) => r.model === 'm-failover')).toMatchObject({
      attempts: 2,
      provider: 'fake-anthropic',
    });
  });
});

describe('models through the official SDK', () => {
  it('lists the models, retrieves one, and raises NotFoundError for an unknown one', async () => {
    const listed = [];
    for await (const model of openai.models.list()) listed.push(model.id);
    expect(listed).toEqual(expect.arrayContaining(FAKE_PROVIDER_TYPES.map((type) => `m-${type}`)));
    const model = await openai.models.retrieve('m-anthropic');
    expect(model).toMatchObject({ id: 'm-anthropic', object: 'model', owned_by: 'fake-anthropic' });
    const missing = await openai.models.retrieve('m-nowhere').catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    expect((missing as Error).message).toContain("The model 'm-nowhere' does not exist");
  });
});

describe('count_tokens through the official SDK', () => {
  it('is exact on the anthropic route, an estimate elsewhere, and logged for every provider type', async () => {
    const messages = [{ role: 'user' as const, content: 'count these five words please' }];
    for (const type of FAKE_PROVIDER_TYPES) {
      const counted = await anthropic.messages.countTokens({ model: `m-${type}`, messages });
      if (type === 'anthropic') expect(counted.input_tokens).toBe(5);
      else expect(counted.input_tokens).toBeGreaterThan(5);
    }
    const rows = await vi.waitFor(
      async () => {
        const all = await e2eRequestLogStore().list({ apiKeyId: keyId, limit: 200 });
        const found = all.filter((r) => r.endpoint === '/v1/messages/count_tokens');
        if (found.length < FAKE_PROVIDER_TYPES.length) throw new Error(`${found.length} count_tokens rows`);
        return found;
      },
      { timeout: 15_000, interval: 200 },
    );
    expect(new Set(rows.map((r) => r.model))).toEqual(new Set(FAKE_PROVIDER_TYPES.map((t) => `m-${t}`)));
    for (const row of rows) expect(row).toMatchObject({ statusCode: 200, promptTokens: 0, costUsd: 0 });
  });
});

describe('embeddings through the official SDK, inside workerd', () => {
  const EMBEDDING_UPSTREAMS: Record<FakeProviderType, string | null> = {
    openai: 'text-embedding-3-small',
    azure_openai: 'text-embedding-3-small',
    custom: 'bge-small',
    anthropic: null,
    google: 'text-embedding-004',
    bedrock: 'amazon.titan-embed-text-v2:0',
  };

  it('answers float and base64 for every provider type with an embeddings API, and logs the cost', async () => {
    const providers = (await adminApi('GET', '/api/admin/providers')).body as Array<{
      id: string;
      name: string;
    }>;
    const types = FAKE_PROVIDER_TYPES.filter((type) => EMBEDDING_UPSTREAMS[type] !== null);
    for (const type of types) {
      const created = await adminApi('POST', '/api/admin/models', {
        name: `e2e-embed-${type}`,
        kind: 'embedding',
        input_price_per_mtok: 1,
        routes: [
          {
            // By name: other files of the suite register providers of the same types.
            provider_id: providers.find((p) => p.name === `fake-${PROVIDER_VENDORS[type]}`)?.id,
            upstream_model: EMBEDDING_UPSTREAMS[type],
          },
        ],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
    const input = ['embed this passage', 'and this one'];
    for (const type of types) {
      const model = `e2e-embed-${type}`;
      const floats = await vi.waitFor(
        () => openai.embeddings.create({ model, input, encoding_format: 'float' }),
        { timeout: 5_000, interval: 200 },
      );
      const expected = input.map((text) => fakeVector(text));
      expect(
        floats.data.map((d) => d.embedding),
        type,
      ).toEqual(expected);
      const decoded = await openai.embeddings.create({ model, input });
      expect(
        decoded.data.map((d) => d.embedding),
        type,
      ).toEqual(expected);
    }
    const rows = await vi.waitFor(
      async () => {
        const all = await e2eRequestLogStore().list({ apiKeyId: keyId, limit: 200 });
        const found = all.filter((r) => r.endpoint === '/v1/embeddings');
        if (found.length < types.length * 2) throw new Error(`${found.length} embeddings rows`);
        return found;
      },
      { timeout: 15_000, interval: 200 },
    );
    for (const row of rows) {
      expect(row).toMatchObject({ statusCode: 200, completionTokens: 0 });
      expect(row.costUsd).toBeCloseTo(row.promptTokens / 1e6, 12);
    }
  });
});

describe('an upstream that falls silent mid-stream, inside workerd', () => {
  it("ends the client's stream with the format's error event after the idle timeout, and logs a 504", async () => {
    const providers = (await adminApi('GET', '/api/admin/providers')).body as Array<{
      id: string;
      name: string;
    }>;
    const created = await adminApi('POST', '/api/admin/models', {
      name: 'm-stall',
      routes: [
        { provider_id: providers.find((p) => p.name === 'fake-openai')?.id, upstream_model: 'stall-chat' },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // Every isolate knows the model within about a second of the change.
    await vi.waitFor(() => openai.models.retrieve('m-stall'), { timeout: 5_000, interval: 200 });
    // The e2e stack's idle timeout is 5 s (tests/setup/e2e-global.ts).
    const started = Date.now();
    const stream = await openai.chat.completions.create({
      model: 'm-stall',
      stream: true,
      messages: [{ role: 'user', content: 'hello' }],
    });
    const failed = await (async () => {
      for await (const _chunk of stream);
    })().catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(OpenAI.APIError);
    expect((failed as Error).message).toContain('sent nothing for 5000 ms');
    expect(Date.now() - started).toBeLessThan(5_000 + 4_000);
    const row = await vi.waitFor(
      async () => {
        const found = (await e2eRequestLogStore().list({ apiKeyId: keyId, limit: 200 })).find(
          (r) => r.model === 'm-stall',
        );
        if (!found) throw new Error('no row yet');
        return found;
      },
      { timeout: 15_000, interval: 200 },
    );
    expect(row).toMatchObject({
      statusCode: 504,
      errorType: 'upstream_timeout',
      provider: 'fake-openai',
      stream: true,
    });
  });
});

describe('a client that leaves, inside workerd', () => {
  it('stops the upstream stream and logs what was used, as 499', async () => {
    const words = Array.from({ length: 2000 }, (_, i) => `w${i}`).join(' ');
    const res = await fetch(`${gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${openai.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'm-anthropic',
        stream: true,
        messages: [{ role: 'user', content: words }],
      }),
    });
    // The fake streams its 2001-word echo in small pieces a millisecond apart: leave early.
    const reader = await readUntil(res.body, '"content":"echo');
    await reader.cancel();
    // Usually the worker hears of it at once; when workerd drops the news (it does, now and
    // then), the stack's 5 s idle guard ends the exchange instead: either way a 499 row.
    const row = await vi.waitFor(
      async () => {
        const found = (await e2eRequestLogStore().list({ apiKeyId: keyId, limit: 200 })).find(
          (r) => r.clientAborted,
        );
        if (!found) throw new Error('no aborted row yet');
        return found;
      },
      { timeout: 15_000, interval: 100 },
    );
    expect(row).toMatchObject({ statusCode: 499, stream: true, model: 'm-anthropic', promptTokens: 2000 });
    expect(row.completionTokens).toBeLessThan(2001);
  });
});

describe('streamed answers in the response cache, inside workerd', () => {
  /** The raw bytes of one streamed call, and whether the cache answered it. */
  async function streamed(path: string, body: Record<string, unknown>) {
    const res = await fetch(`${gatewayUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${openai.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, stream: true }),
    });
    expect(res.status).toBe(200);
    return { cache: res.headers.get('x-sluice-cache'), text: await res.text() };
  }

  /**
   * The entry is written after the answer, in the background: the same call until it hits. A
   * call that misses meanwhile stores its own answer, so the hit is one of the answers given.
   */
  async function replayed(path: string, body: Record<string, unknown>, first: string) {
    const given = [first];
    await vi.waitFor(
      async () => {
        const again = await streamed(path, body);
        if (again.cache !== 'HIT') {
          given.push(again.text);
          throw new Error(`not cached yet (${again.cache})`);
        }
        expect(given).toContain(again.text);
      },
      { timeout: 10_000, interval: 200 },
    );
  }

  it('keeps what the client got, byte for byte, on each path a stream takes', async () => {
    const providers = (await adminApi('GET', '/api/admin/providers')).body as Array<{
      id: string;
      name: string;
    }>;
    const openaiId = providers.find((p) => p.name === 'fake-openai')?.id;
    // The upstream's model by its own name: the bytes pass untouched, copied by the stage that writes them.
    const created = await adminApi('POST', '/api/admin/models', {
      name: 'cache-same-name',
      routes: [{ provider_id: openaiId, upstream_model: 'cache-same-name' }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await vi.waitFor(() => openai.models.retrieve('cache-same-name'), { timeout: 5_000, interval: 200 });
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['/v1/chat/completions', { model: 'cache-same-name', seed: 11 }, '"model":"cache-same-name"'],
      // An alias: every event renamed as it passes, kept by the stage that renames.
      ['/v1/chat/completions', { model: 'm-openai', seed: 12 }, '"model":"m-openai"'],
      ['/v1/messages', { model: 'm-anthropic', max_tokens: 50 }, '"model":"m-anthropic"'],
      // Another format upstream: kept by the encoder's last stage.
      ['/v1/messages', { model: 'm-openai', max_tokens: 51 }, '"model":"m-openai"'],
    ];
    for (const [path, extra, named] of cases) {
      const body = { ...extra, messages: [{ role: 'user', content: `keep ${path} ${extra.model}` }] };
      const first = await streamed(path, body);
      expect(first.cache).toBe('MISS');
      expect(first.text).toContain(named);
      expect(first.text).toMatch(path === '/v1/messages' ? /event: message_stop/ : /data: \[DONE\]/);
      await replayed(path, body, first.text);
    }
  });
});
