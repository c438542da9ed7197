// The model endpoints' errors (400, 401, 403 "Model not allowed", 404 "Model not found", 429 route
// caps, 502 upstream_error), route failover, the response cache (its answers count against usage),
// the request log (tokens, cost, unpriced, cache hits, client aborts) and byte passthrough.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { abandonedStalls } from '../fakes/context';
import { type ProxyHarness, proxyHarness } from '../helpers/proxy-harness';
import { readUntil } from '../helpers/stream-reading';

let h: ProxyHarness;
const IDLE_MS = 1_000;
const chat = (model: string, extra: Record<string, unknown> = {}) => ({
  model,
  messages: [{ role: 'user', content: `hello ${model}` }],
  ...extra,
});

/** The same request as the official client takes it. */
const sdkChat = (model: string) => ({
  model,
  messages: [{ role: 'user' as const, content: `hello ${model}` }],
});

beforeAll(async () => {
  // A short idle timeout, so the stalled-upstream tests take a second, not a minute.
  h = await proxyHarness('proxy_behaviour', { SLUICE_UPSTREAM_IDLE_TIMEOUT_MS: String(IDLE_MS) });
});
afterAll(() => h.close());

async function providerNamed(name: string): Promise<{ id: string }> {
  const list = await h.admin('GET', '/api/admin/providers');
  const found = (list.body as Array<{ id: string; name: string }>).find((p) => p.name === name);
  if (!found) throw new Error(`no provider ${name}`);
  return found;
}

function newestLog(filter: (row: Awaited<ReturnType<ProxyHarness['logs']>>[number]) => boolean) {
  return vi.waitFor(
    async () => {
      const row = (await h.logs(1)).find(filter);
      if (!row) throw new Error('no matching request log row');
      return row;
    },
    { timeout: 10_000, interval: 100 },
  );
}

describe('routing', () => {
  it('fails over to the next route when the first answers 503', async () => {
    const res = await h.openai.chat.completions.create(sdkChat('m-failover'));
    expect(res.choices[0]?.message.content).toBe('echo: hello m-failover');
    const upstreamModels = h.fakes.requests.map((r) => (r.body as { model?: string })?.model);
    expect(upstreamModels).toContain('fail-503');
    const row = await newestLog((r) => r.model === 'm-failover');
    expect(row).toMatchObject({ statusCode: 200, provider: 'fake-anthropic', attempts: 2 });
  });

  it('answers 502 upstream_error when every route fails, and logs the attempts and last provider', async () => {
    const res = await h.post('/v1/chat/completions', chat('m-all-fail'));
    expect(res.status).toBe(502);
    const body = (await res.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe('upstream_error');
    expect(body.error.message).toMatch(/^All routes failed for model m-all-fail/);
    const row = await newestLog((r) => r.model === 'm-all-fail');
    expect(row).toMatchObject({
      statusCode: 502,
      errorType: 'upstream_error',
      promptTokens: 0,
      attempts: 2,
      provider: 'fake-google',
    });
  });

  it('returns an upstream 400 to the client in its own format', async () => {
    const chatRes = await h.post('/v1/chat/completions', chat('m-bad-request'));
    expect(chatRes.status).toBe(400);
    expect(await chatRes.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    const messages = await h.post('/v1/messages', { ...chat('m-bad-request'), max_tokens: 10 });
    expect(messages.status).toBe(400);
    expect(await messages.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });

  it('fails over when the first upstream cannot be reached at all', async () => {
    const dead = await h.admin('POST', '/api/admin/providers', {
      name: 'unreachable',
      display_name: 'Nothing listens here',
      provider_type: 'openai',
      base_url: 'http://127.0.0.1:9/v1',
      api_key: 'sk-none',
    });
    const model = await h.admin('POST', '/api/admin/models', {
      name: 'm-dead-first',
      routes: [
        { provider_id: dead.body.id, upstream_model: 'test-model' },
        { provider_id: (await providerNamed('fake-custom')).id, upstream_model: 'test-model' },
      ],
    });
    expect(model.status).toBe(201);
    const res = await h.post('/v1/chat/completions', chat('m-dead-first'));
    expect(res.status).toBe(200);
    const row = await newestLog((r) => r.model === 'm-dead-first');
    expect(row).toMatchObject({ provider: 'fake-custom', attempts: 2 });
  });

  it('gives up on an upstream that sends no headers within upstream_timeout_seconds', async () => {
    const set = await h.admin('PATCH', '/api/admin/settings', { settings: { upstream_timeout_seconds: 1 } });
    expect(set.status).toBe(200);
    // The change moved the settings version: the next admission reloads the settings.
    const started = Date.now();
    const res = await h.post('/v1/chat/completions', chat('m-slow'));
    const took = Date.now() - started;
    await h.admin('PATCH', '/api/admin/settings', { settings: { upstream_timeout_seconds: 120 } });
    expect(res.status).toBe(504);
    const body = (await res.json()) as { error: { message: string; type: string } };
    expect(body.error.type).toBe('upstream_timeout');
    expect(body.error.message).toContain('no answer within 1000 ms');
    expect(took).toBeGreaterThanOrEqual(950);
    expect(took).toBeLessThan(2_500);
    const row = await newestLog((r) => r.model === 'm-slow');
    expect(row).toMatchObject({ statusCode: 504, provider: 'fake-openai', attempts: 1 });
  });

  it('refuses with 429 route:requests/1m once the only route is at its RPM cap', async () => {
    // Different bodies: a cache hit would not reach the route at all.
    expect((await h.post('/v1/chat/completions', chat('m-capped', { seed: 1 }))).status).toBe(200);
    const refused = await h.post('/v1/chat/completions', chat('m-capped', { seed: 2 }));
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      error: { message: 'Rate limited: route:requests/1m', type: 'rate_limit_error' },
    });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });
});

describe('client errors', () => {
  it('validates bodies in each format with 400', async () => {
    const hot = await h.post('/v1/chat/completions', chat('m-openai', { temperature: 3 }));
    expect(hot.status).toBe(400);
    expect(await hot.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    const noMax = await h.post('/v1/messages', chat('m-openai'));
    expect(noMax.status).toBe(400);
    expect(await noMax.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    const penalty = await h.post('/v1/chat/completions', chat('m-openai', { presence_penalty: -5 }));
    expect(penalty.status).toBe(400);
    const notJson = await h.gateway.app.request('/v1/responses', {
      method: 'POST',
      headers: { authorization: `Bearer ${h.apiKey}`, 'content-type': 'application/json' },
      body: '{"model":',
    });
    expect(notJson.status).toBe(400);
  });

  it('answers 404 Model not found and 401 for a bad key', async () => {
    const missing = await h.post('/v1/chat/completions', chat('no-such-model'));
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: { message: 'Model not found', type: 'not_found_error' } });
    const bad = await h.gateway.app.request('/v1/messages', {
      method: 'POST',
      headers: { 'x-api-key': 'sluice-wrong', 'content-type': 'application/json' },
      body: JSON.stringify({ ...chat('m-openai'), max_tokens: 5 }),
    });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
  });

  it('answers 403 Model not allowed for a model outside the key allow-list, counting nothing', async () => {
    const token = (await (
      await h.console.call('POST', '/api/auth/login', {
        body: { email: 'admin@proxy-behaviour.example', password: 'proxy-admin-password' },
      })
    ).json()) as { access_token: string };
    const created = await h.console.call('POST', '/api/keys', {
      token: token.access_token,
      body: { name: 'only openai', allowed_models: ['m-openai'] },
    });
    const { key } = (await created.json()) as { key: string };
    const refused = await h.gateway.app.request('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(chat('m-custom')),
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      error: { message: 'Model not allowed', type: 'permission_error' },
    });
  });
});

/** Entries are written after the response, in the background: wait for this one. */
async function cached(body: unknown): Promise<void> {
  const key = await h.gateway.deps.proxy.cache.keyFor(`key:${h.keyId}`, 'openai-chat', body);
  await vi.waitFor(async () => {
    if ((await h.gateway.deps.redis.get(key)) === null) throw new Error('not cached yet');
  });
}

describe('response cache', () => {
  it('serves an identical request from the cache, byte for byte, and still logs its tokens', async () => {
    const body = chat('m-google', { temperature: 0.1 });
    const first = await h.post('/v1/chat/completions', body);
    const firstText = await first.text();
    expect(first.headers.get('x-sluice-cache')).toBe('MISS');
    await cached(body);
    const second = await h.post('/v1/chat/completions', body);
    expect(second.headers.get('x-sluice-cache')).toBe('HIT');
    expect(await second.text()).toBe(firstText);
    const bypass = await h.post('/v1/chat/completions', body, { 'cache-control': 'no-cache' });
    expect(bypass.headers.get('x-sluice-cache')).toBe('BYPASS');
    const hit = await newestLog((r) => r.model === 'm-google' && r.cacheHit);
    expect(hit).toMatchObject({ statusCode: 200, costUsd: 0, attempts: 0 });
    expect(hit.promptTokens).toBeGreaterThan(0);
  });

  it('replays a cached stream exactly', async () => {
    const body = { ...chat('m-bedrock', { stream: true }), seed: 7 };
    const first = await (await h.post('/v1/chat/completions', body)).text();
    await cached(body);
    const again = await h.post('/v1/chat/completions', body);
    expect(again.headers.get('x-sluice-cache')).toBe('HIT');
    expect(again.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(await again.text()).toBe(first);
    expect(first.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });
});

describe('passthrough and the ledger', () => {
  it('passes unknown fields to a same-format upstream and reads stream usage it had to ask for', async () => {
    // A field the gateway does not read but OpenAI takes (OpenAI refuses ones it does not know).
    const res = await h.post(
      '/v1/chat/completions',
      chat('m-openai', { stream: true, safety_identifier: 'kept' }),
    );
    const text = await res.text();
    const sent = h.fakes.requests.filter((r) => r.vendor === 'openai').at(-1)?.body as Record<
      string,
      unknown
    >;
    expect(sent).toMatchObject({
      safety_identifier: 'kept',
      model: 'test-model',
      stream_options: { include_usage: true },
    });
    const chunks = text
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => JSON.parse(line.slice(6)) as { choices: unknown[]; usage?: unknown });
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.filter((c) => c.choices.length === 0 || (c.usage ?? null) !== null)).toEqual([]);
    const row = await newestLog((r) => r.model === 'm-openai' && r.stream && !r.cacheHit);
    expect(row.completionTokens).toBeGreaterThan(0);
  });

  it('logs an unpriced model with a null cost and the flag, never 0', async () => {
    await h.openai.chat.completions.create(sdkChat('m-unpriced'));
    const row = await newestLog((r) => r.model === 'm-unpriced');
    expect(row).toMatchObject({ costUsd: null, unpriced: true });
    expect(row.promptTokens).toBeGreaterThan(0);
  });

  it('stops waiting for the upstream when the client leaves, and logs the request', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const pending = h.gateway.app.request('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${h.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(chat('m-slow')),
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 200);
    const res = await Promise.resolve(pending).catch((error: unknown) => error);
    expect(Date.now() - started).toBeLessThan(2_500);
    if (res instanceof Response) expect(res.status).toBe(499);
    const row = await newestLog((r) => r.model === 'm-slow' && r.clientAborted);
    expect(row).toMatchObject({ statusCode: 499, clientAborted: true });
  });

  it('records what a stream used when the client leaves part way', async () => {
    const words = Array.from({ length: 300 }, (_, i) => `w${i}`).join(' ');
    const res = await h.post('/v1/messages', {
      model: 'm-anthropic',
      max_tokens: 1000,
      stream: true,
      messages: [{ role: 'user', content: words }],
    });
    // Leave after the first text delta: the answer has begun, most of it is still to come.
    const reader = await readUntil(res.body, 'content_block_delta');
    await reader.cancel();
    const row = await newestLog((r) => r.model === 'm-anthropic' && r.clientAborted);
    expect(row).toMatchObject({ statusCode: 499, promptTokens: 300, stream: true });
  });
});

describe('a client that stops reading without leaving', () => {
  // What workerd shows the worker now and then when a client disconnects mid-stream: no abort,
  // no cancel, only a stream nobody pulls (see proxy/idle-guard.ts).
  it('is cut after the idle timeout: the upstream aborted, the row a 499 with the tokens seen', async () => {
    const words = Array.from({ length: 3000 }, (_, i) => `w${i}`).join(' ');
    const started = Date.now();
    const res = await h.post('/v1/chat/completions', {
      model: 'm-anthropic',
      stream: true,
      messages: [{ role: 'user', content: words }],
    });
    const reader = await readUntil(res.body, '"content":"echo');
    const row = await newestLog((r) => r.model === 'm-anthropic' && r.promptTokens === 3000);
    expect(row).toMatchObject({ statusCode: 499, clientAborted: true, stream: true });
    expect(row.completionTokens).toBeLessThan(3001);
    expect(Date.now() - started).toBeLessThan(IDLE_MS + 4_000);
    // A client that reads again finds the stream broken off, never a normal end.
    const resumed = await (async () => {
      for (;;) if ((await reader.read()).done) return 'ended normally';
    })().catch(() => 'broken off');
    expect(resumed).toBe('broken off');
  });
});

describe('upstreams that fall silent after their headers', () => {
  const providerOf = async (name: string) => (await providerNamed(name)).id;
  async function stallingModel(name: string, provider: string, upstreamModel: string) {
    const res = await h.admin('POST', '/api/admin/models', {
      name,
      routes: [{ provider_id: await providerOf(provider), upstream_model: upstreamModel }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  const abandoned = (upstreamModel: string) =>
    vi.waitFor(() => expect(abandonedStalls.map((s) => s.model)).toContain(upstreamModel), {
      timeout: 3_000,
    });

  // The openai SDK asks for no usage chunk here, so the gateway drops the one it asked for:
  // the bytes pass through a stage, which ends the stream with the format's error event.
  it('ends a chat stream with its error event, aborts the upstream and logs a 504', async () => {
    await stallingModel('m-stall-chat', 'fake-openai', 'stall-chat');
    const started = Date.now();
    const stream = await h.openai.chat.completions.create({ ...sdkChat('m-stall-chat'), stream: true });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const chunk of stream) seen.push(chunk.choices[0]?.delta?.content ?? '');
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as Error).message).toContain(`sent nothing for ${IDLE_MS} ms`);
    expect(seen.length).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(IDLE_MS + 2_000);
    await abandoned('stall-chat');
    const row = await newestLog((r) => r.model === 'm-stall-chat');
    expect(row).toMatchObject({
      statusCode: 504,
      errorType: 'upstream_timeout',
      provider: 'fake-openai',
      attempts: 1,
      clientAborted: false,
      stream: true,
    });
  });

  it('does the same for a translated stream, in the client format', async () => {
    await stallingModel('m-stall-translated', 'fake-anthropic', 'stall-translated');
    const stream = await h.openai.chat.completions.create({ ...sdkChat('m-stall-translated'), stream: true });
    const error = await (async () => {
      for await (const _ of stream) {
        // read until the error
      }
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    await abandoned('stall-translated');
    const row = await newestLog((r) => r.model === 'm-stall-translated');
    expect(row).toMatchObject({ statusCode: 504, provider: 'fake-anthropic', errorType: 'upstream_timeout' });
  });

  // Passed through untouched (the model named as upstream, so no JavaScript stage on the
  // client's side, see respond.ts): where the upstream's body is aborted, its error event is
  // added after what came, and the client's SDK raises.
  it('ends a passthrough stream for Anthropic clients with the error event, aborts the upstream and logs a 504', async () => {
    await stallingModel('stall-messages', 'fake-anthropic', 'stall-messages');
    const stream = h.anthropic.messages.stream({
      model: 'stall-messages',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'hello' }],
    });
    const error = await stream.finalMessage().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    await abandoned('stall-messages');
    const row = await newestLog((r) => r.model === 'stall-messages');
    expect(row).toMatchObject({ statusCode: 504, errorType: 'upstream_timeout', provider: 'fake-anthropic' });
    expect(row.promptTokens).toBeGreaterThan(0); // message_start came before the silence
  });

  // Under an alias the passthrough renames the model in every event, so its bytes pass through
  // a stage in JavaScript, and a silence ends the stream with the format's error event.
  it('ends an aliased passthrough Responses stream with the error event', async () => {
    await stallingModel('m-stall-responses', 'fake-openai', 'stall-responses');
    const res = await h.post('/v1/responses', { model: 'm-stall-responses', input: 'hello', stream: true });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('"model":"m-stall-responses"');
    // `error` (the SDK's ResponseStream rejects on it), then the terminal `response.failed`.
    const events = text.trimEnd().split('\n\n');
    expect(events.at(-2)).toContain('"code":"upstream_timeout"');
    expect(events.at(-1)).toMatch(/^event: response\.failed\ndata: .*"status":"failed"/);
    await abandoned('stall-responses');
    const row = await newestLog((r) => r.model === 'm-stall-responses');
    expect(row).toMatchObject({ statusCode: 504, errorType: 'upstream_timeout' });
  });

  it('answers 504 when a non-streamed body stops half way', async () => {
    await stallingModel('m-stall-json', 'fake-openai', 'stall-json');
    const res = await h.post('/v1/chat/completions', chat('m-stall-json'));
    expect(res.status).toBe(504);
    expect(await res.json()).toMatchObject({ error: { type: 'upstream_timeout' } });
    await abandoned('stall-json');
    const row = await newestLog((r) => r.model === 'm-stall-json');
    expect(row).toMatchObject({ statusCode: 504, provider: 'fake-openai', attempts: 1 });
  });
});
