// GET /metrics: Prometheus text format, aggregated in Redis so a scrape sees every isolate; checked
// by promtool (Debian's prometheus package, installed by .ci/run).
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type GatewayHarness, gatewayHarness } from '../helpers/gateway';
import { type ProxyHarness, proxyHarness } from '../helpers/proxy-harness';

let h: ProxyHarness;
let a: GatewayHarness;
let b: GatewayHarness;

/** A sample's value from the exposition, 0 when the series is absent. */
function value(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

const chat = (text: string) =>
  JSON.stringify({ model: 'm-openai', messages: [{ role: 'user', content: text }] });

function post(gateway: GatewayHarness, body: string, key = h.apiKey) {
  return gateway.app.request('/v1/chat/completions', {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body,
  });
}

async function scrape(gateway: GatewayHarness): Promise<string> {
  const res = await gateway.app.request('/metrics');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  return res.text();
}

beforeAll(async () => {
  h = await proxyHarness('gateway_metrics');
  // Two gateway instances of one deployment, on series of their own (other files share Redis).
  const env = { ...h.gateway.env, SLUICE_METRICS_KEY: `it:metrics:${randomUUID()}` };
  a = gatewayHarness(env);
  b = gatewayHarness(env);
});
afterAll(() => h.close());

describe('GET /metrics', () => {
  it('counts requests, errors, tokens, cache hits and refusals across instances', async () => {
    for (let i = 0; i < 3; i++) expect((await post(a, chat(`metrics ${i}`))).status).toBe(200);
    expect((await post(b, chat('metrics b'))).status).toBe(200);
    // The same request again from the other instance until it comes from the cache (the
    // entry is written after the first answer).
    await vi.waitFor(
      async () => {
        const res = await post(b, chat('metrics 0'));
        await res.text();
        expect(res.headers.get('x-sluice-cache')).toBe('HIT');
      },
      { timeout: 2_000, interval: 100 },
    );
    expect((await post(a, chat('x'), 'sluice-not-a-key')).status).toBe(401);
    expect(
      (await post(a, JSON.stringify({ model: 'no-such-model', messages: [{ role: 'user', content: 'x' }] })))
        .status,
    ).toBe(404);
    expect((await a.app.request('/no/such/path')).status).toBe(404);

    // Samples reach Redis with each instance's next flush (every 200 ms): scrape until they are in.
    await vi.waitFor(
      async () => {
        const text = await scrape(b);
        const ok = 'http_requests_total{endpoint="/v1/chat/completions",method="POST",status="200"}';
        expect(value(text, ok)).toBeGreaterThanOrEqual(5);
        expect(value(text, 'http_requests_total{endpoint="/v1/*",method="POST",status="401"}')).toBe(1);
        expect(value(text, 'http_requests_total{endpoint="unmatched",method="GET",status="404"}')).toBe(1);
        expect(value(text, 'sluice_errors_total{type="authentication_error"}')).toBe(1);
        expect(value(text, 'sluice_errors_total{type="not_found_error"}')).toBe(2);
        expect(value(text, 'sluice_tokens_total{kind="prompt",model="m-openai"}')).toBeGreaterThan(0);
        expect(value(text, 'sluice_tokens_total{kind="completion",model="m-openai"}')).toBeGreaterThan(0);
        expect(value(text, 'sluice_cache_hits_total{model="m-openai"}')).toBeGreaterThanOrEqual(1);
        const count = value(
          text,
          'http_request_duration_seconds_count{endpoint="/v1/chat/completions",method="POST"}',
        );
        const inf = value(
          text,
          'http_request_duration_seconds_bucket{endpoint="/v1/chat/completions",le="+Inf",method="POST"}',
        );
        expect(inf).toBe(count);
        expect(
          value(text, 'sluice_upstream_duration_seconds_count{provider="fake-openai"}'),
        ).toBeGreaterThanOrEqual(4);
      },
      { timeout: 5_000, interval: 100 },
    );
  });

  it('names the limit that refused', async () => {
    await h.admin('PUT', `/api/admin/limits/api_key/${h.keyId}/rules`, {
      rules: [{ kind: 'requests', window: '1h', limit: 1 }],
    });
    // The rules moved the limits version: the next admission reloads them.
    await post(a, chat('limited one'));
    expect((await post(a, chat('limited two'))).status).toBe(429);
    await vi.waitFor(
      async () =>
        expect(value(await scrape(a), 'sluice_rate_limited_total{limit="key:requests/1h"}')).toBe(1),
      { timeout: 5_000, interval: 100 },
    );
    await h.admin('DELETE', `/api/admin/limits/api_key/${h.keyId}/rules`);
  });

  it('passes promtool check metrics', async () => {
    const text = await scrape(a);
    expect(() =>
      execFileSync('promtool', ['check', 'metrics'], { input: text, stdio: 'pipe' }),
    ).not.toThrow();
  });
});
