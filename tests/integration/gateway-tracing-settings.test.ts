// Tracing set in the console (the edge deployment has no environment to set OTEL_* in): the
// gateway picks the otel_* settings up within a few requests, sends its spans where they say with the
// (sealed) headers they give, and stops when the endpoint is cleared.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type GatewayHarness, gatewayHarness } from '../helpers/gateway';
import { type OtlpReceiver, startOtlpReceiver } from '../helpers/otlp-receiver';
import { type ProxyHarness, proxyHarness } from '../helpers/proxy-harness';

let h: ProxyHarness;
let gateway: GatewayHarness;
let receiver: OtlpReceiver;

beforeAll(async () => {
  h = await proxyHarness('gateway_tracing_settings');
  gateway = gatewayHarness(h.gateway.env);
  receiver = await startOtlpReceiver();
});
afterAll(async () => {
  await receiver.close();
  await h.close();
});

const newTraceId = () => crypto.randomUUID().replaceAll('-', '');
const clientTraceparent = (traceId: string) => `00-${traceId}-00f067aa0ba902b7-01`;
/** The traceparent the fake upstream got with the latest request. */
const upstreamTraceparent = () => h.fakes.requests.at(-1)?.headers.traceparent;

function chat(traceId: string) {
  return gateway.app.request('/v1/chat/completions', {
    method: 'POST',
    headers: {
      authorization: `Bearer ${h.apiKey}`,
      'content-type': 'application/json',
      // Every request goes upstream, so what it sent there can be read.
      'cache-control': 'no-store',
      traceparent: clientTraceparent(traceId),
    },
    body: JSON.stringify({ model: 'm-openai', messages: [{ role: 'user', content: 'traced by settings' }] }),
  });
}

/** Requests, until the settings they made the gateway look at turned its tracer on (or off). */
async function untilTracing(enabled: boolean): Promise<void> {
  await vi.waitFor(
    async () => {
      expect((await chat(newTraceId())).status).toBe(200);
      expect(gateway.deps.tracer.enabled).toBe(enabled);
    },
    { timeout: 15_000, interval: 50 },
  );
}

describe('tracing from the console settings', () => {
  it('starts, carries the configured headers, and stops as the settings say', async () => {
    const set = await h.admin('PATCH', '/api/admin/settings', {
      settings: {
        otel_exporter_otlp_endpoint: receiver.url,
        otel_exporter_otlp_protocol: 'http/json',
        otel_exporter_otlp_headers: 'x-collector-key=from%20settings',
      },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    // The secret is write-only: it is not read back.
    const read = await h.admin('GET', '/api/admin/settings');
    expect(JSON.stringify(read.body)).not.toContain('from settings');

    // A request looks at the tracing settings in the background, once this isolate saw them
    // move: ask until the tracer is on, then the next request is traced.
    await untilTracing(true);
    const traced = newTraceId();
    expect((await chat(traced)).status).toBe(200);
    const spans = await receiver.waitForSpans((all) =>
      all.some((s) => s.traceId === traced && s.kind === 'SERVER'),
    );
    const span = spans.find((s) => s.traceId === traced && s.kind === 'SERVER');
    expect(span?.encoding).toBe('json');
    expect(span?.attributes['gen_ai.request.model']).toBe('m-openai');
    expect(receiver.requests().at(-1)?.headers['x-collector-key']).toBe('from settings');
    expect(upstreamTraceparent()).not.toBe(clientTraceparent(traced));

    expect(
      (await h.admin('PATCH', '/api/admin/settings', { settings: { otel_exporter_otlp_endpoint: '' } }))
        .status,
    ).toBe(200);
    await untilTracing(false);
    // And it stays off: the client's context goes upstream untouched, no span of the gateway's
    // in between, and nothing of these requests is sent.
    const untraced = [newTraceId(), newTraceId(), newTraceId()];
    for (const id of untraced) {
      expect((await chat(id)).status).toBe(200);
      expect(upstreamTraceparent()).toBe(clientTraceparent(id));
    }
    expect(receiver.spans().filter((s) => untraced.includes(s.traceId))).toEqual([]);
  }, 60_000);
});
