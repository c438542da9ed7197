// GET /metrics: active connection/stream gauges across isolates. Each isolate publishes its
// in-flight counts into one Redis hash field with every metrics flush; a scrape sums the fields
// fresher than the TTL. Two metrics stores (two isolates) over the real Redis, then two gateway
// instances with a stream held open by a fake upstream.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { unstable_startWorker } from 'wrangler';
import { createRedisMetricsStore } from '../../shared/src/metrics/store';
import { createUpstash } from '../../shared/src/stores/upstash';
import { type GatewayHarness, gatewayHarness } from '../helpers/gateway';
import { type ProxyHarness, proxyHarness } from '../helpers/proxy-harness';

let h: ProxyHarness;
let redis: ReturnType<typeof createUpstash>;

/** A sample's value from the exposition, undefined when the series is absent. */
function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : undefined;
}

function storeFor(key: string, options: { isolateId?: string; activeTtlMs?: number } = {}) {
  return createRedisMetricsStore(redis, {
    key,
    ...options,
    onError: (error) => {
      throw error;
    },
  });
}

beforeAll(async () => {
  h = await proxyHarness('r_active_gauges');
  redis = createUpstash({
    url: h.gateway.env.UPSTASH_REDIS_REST_URL ?? '',
    token: h.gateway.env.UPSTASH_REDIS_REST_TOKEN ?? '',
    timeoutMs: 5_000,
  });
});
afterAll(() => h.close());

describe('active gauges over two metrics stores (two isolates)', () => {
  it('sum the in-flight counts of every isolate and follow their ends', async () => {
    const key = `it:gauges:${randomUUID()}`;
    const a = storeFor(key);
    const b = storeFor(key);
    const scraper = storeFor(key);
    const a1 = a.start('requests');
    const a2 = a.start('requests');
    const aStream = a.start('streams');
    const b1 = b.start('requests');
    await Promise.all([a1.published, a2.published, aStream.published, b1.published]);
    expect(await scraper.read()).toMatchObject({ sluice_active_requests: 3, sluice_active_streams: 1 });

    await Promise.all([a1.end(), aStream.end(), aStream.end()]); // a second end() changes nothing
    expect(await scraper.read()).toMatchObject({ sluice_active_requests: 2, sluice_active_streams: 0 });
    await Promise.all([a2.end(), b1.end()]);
    expect(await scraper.read()).toMatchObject({ sluice_active_requests: 0, sluice_active_streams: 0 });
    // A store that never served publishes nothing.
    expect(Object.keys((await redis.hgetall(`${key}:active`)) ?? {})).toHaveLength(2);
  });

  it('forget an isolate that stopped publishing (evicted mid-request) after the TTL', async () => {
    const key = `it:gauges:${randomUUID()}`;
    const dead = storeFor(key, { isolateId: 'dead-isolate' });
    const live = storeFor(key, { isolateId: 'live-isolate' });
    const scraper = storeFor(key, { activeTtlMs: 1_000 });
    await dead.start('streams').published; // never ended: the isolate is gone
    await live.start('requests').published;
    expect(await scraper.read()).toMatchObject({ sluice_active_requests: 1, sluice_active_streams: 1 });
    // The live isolate keeps publishing (a request more each time) while the TTL (Redis's clock)
    // runs out on the dead one's snapshot: scrape until it is gone.
    let liveRequests = 1;
    await vi.waitFor(
      async () => {
        await live.start('requests').published;
        liveRequests += 1;
        expect(await scraper.read()).toMatchObject({
          sluice_active_requests: liveRequests,
          sluice_active_streams: 0,
        });
      },
      { timeout: 5_000, interval: 100 },
    );
    expect(Object.keys((await redis.hgetall(`${key}:active`)) ?? {})).toEqual(['live-isolate']);
  });
});

/** An OpenAI-compatible upstream whose stream sends one chunk, then waits for release(). */
function heldUpstream() {
  const held: ServerResponse[] = [];
  const chunk = (content: string, finish: string | null) =>
    `data: ${JSON.stringify({
      id: 'chatcmpl-held',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'held',
      choices: [{ index: 0, delta: { content }, finish_reason: finish }],
    })}\n\n`;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk('held', null));
      held.push(res);
    });
  });
  return {
    server,
    held,
    release() {
      for (const res of held.splice(0)) {
        res.write(chunk(' open', 'stop'));
        res.end('data: [DONE]\n\n');
      }
    },
  };
}

describe('active gauges through two gateway instances', () => {
  let a: GatewayHarness;
  let b: GatewayHarness;
  const upstream = heldUpstream();

  beforeAll(async () => {
    await new Promise<void>((resolve) => upstream.server.listen(0, '127.0.0.1', resolve));
    const port = (upstream.server.address() as AddressInfo).port;
    const provider = await h.admin('POST', '/api/admin/providers', {
      name: 'held-upstream',
      display_name: 'Held upstream',
      provider_type: 'custom',
      base_url: `http://127.0.0.1:${port}/v1`,
      api_key: 'held-key',
    });
    expect(provider.status, JSON.stringify(provider.body)).toBe(201);
    const model = await h.admin('POST', '/api/admin/models', {
      name: 'm-held',
      routes: [{ provider_id: provider.body.id, upstream_model: 'held' }],
    });
    expect(model.status, JSON.stringify(model.body)).toBe(201);
    const env = { ...h.gateway.env, SLUICE_METRICS_KEY: `it:metrics:${randomUUID()}` };
    a = gatewayHarness(env);
    b = gatewayHarness(env);
  });
  afterAll(async () => {
    upstream.release();
    await new Promise((r) => upstream.server.close(r));
  });

  async function scrape(gateway: GatewayHarness): Promise<string> {
    const res = await gateway.app.request('/metrics');
    expect(res.status).toBe(200);
    return res.text();
  }

  it('count a stream still open on one instance in the scrape of the other, then drop it', async () => {
    expect(value(await scrape(b), 'sluice_active_streams')).toBe(0);
    const res = await a.app.request('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${h.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm-held', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(200);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('held');

    const open = await vi.waitFor(
      async () => {
        const text = await scrape(b);
        expect(value(text, 'sluice_active_streams')).toBe(1);
        return text;
      },
      { timeout: 5_000, interval: 100 },
    );
    // The scrape itself is not in flight; the stream's request is.
    expect(value(open, 'sluice_active_requests')).toBe(1);
    expect(() =>
      execFileSync('promtool', ['check', 'metrics'], { input: open, stdio: 'pipe' }),
    ).not.toThrow();
    expect(open).toContain('# TYPE sluice_active_streams gauge');

    upstream.release();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      rest += new TextDecoder().decode(chunk.value);
    }
    expect(rest).toContain('[DONE]');
    await vi.waitFor(
      async () => {
        const text = await scrape(b);
        expect(value(text, 'sluice_active_streams')).toBe(0);
        expect(value(text, 'sluice_active_requests')).toBe(0);
      },
      { timeout: 5_000, interval: 100 },
    );
  });

  it('count a stream served by the worker in workerd (another process) in an in-process scrape', async () => {
    const worker = await unstable_startWorker({
      name: 'active-gauges',
      entrypoint: join(import.meta.dirname, '../../gateway-worker/src/worker.ts'),
      compatibilityDate: '2026-04-01',
      compatibilityFlags: ['enable_request_signal'],
      bindings: Object.fromEntries(
        Object.entries(a.env).map(([key, value]) => [key, { type: 'plain_text' as const, value }]),
      ),
      dev: {
        server: { hostname: '127.0.0.1', port: 0 },
        inspector: false,
        watch: false,
        logLevel: 'warn',
        persist: false,
      },
    });
    try {
      await worker.ready;
      const res = await fetch(new URL('/v1/chat/completions', await worker.url), {
        method: 'POST',
        headers: { authorization: `Bearer ${h.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm-held', stream: true, messages: [{ role: 'user', content: 'wd' }] }),
      });
      expect(res.status).toBe(200);
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toContain('held');
      await vi.waitFor(async () => expect(value(await scrape(b), 'sluice_active_streams')).toBe(1), {
        timeout: 10_000,
        interval: 100,
      });
      upstream.release();
      let rest = '';
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        rest += new TextDecoder().decode(chunk.value);
      }
      expect(rest).toContain('[DONE]');
      await vi.waitFor(async () => expect(value(await scrape(b), 'sluice_active_streams')).toBe(0), {
        timeout: 10_000,
        interval: 100,
      });
    } finally {
      await worker.dispose();
    }
  });

  it('end a stream the client cancels', async () => {
    const res = await a.app.request('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${h.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm-held', stream: true, messages: [{ role: 'user', content: 'bye' }] }),
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await vi.waitFor(async () => expect(value(await scrape(b), 'sluice_active_streams')).toBe(1), {
      timeout: 5_000,
      interval: 100,
    });
    await reader.cancel();
    await vi.waitFor(async () => expect(value(await scrape(b), 'sluice_active_streams')).toBe(0), {
      timeout: 5_000,
      interval: 100,
    });
  });
});
