// Tracing set in the console (the edge deployment has no environment to set OTEL_* in): the
// gateway picks the otel_* settings up within seconds, sends its spans where they say with the
// (sealed) headers they give, and stops when the endpoint is cleared.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

function chat(traceId: string) {
  return gateway.app.request('/v1/chat/completions', {
    method: 'POST',
    headers: {
      authorization: `Bearer ${h.apiKey}`,
      'content-type': 'application/json',
      traceparent: `00-${traceId}-00f067aa0ba902b7-01`,
    },
    body: JSON.stringify({ model: 'm-openai', messages: [{ role: 'user', content: 'traced by settings' }] }),
  });
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

    let traced = '';
    await expect
      .poll(
        async () => {
          traced = newTraceId();
          expect((await chat(traced)).status).toBe(200);
          await new Promise((resolve) => setTimeout(resolve, 1_500));
          return receiver.spans().some((s) => s.traceId === traced && s.kind === 'SERVER');
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(true);
    const span = receiver.spans().find((s) => s.traceId === traced && s.kind === 'SERVER');
    expect(span?.encoding).toBe('json');
    expect(span?.attributes['gen_ai.request.model']).toBe('m-openai');
    expect(receiver.requests().at(-1)?.headers['x-collector-key']).toBe('from settings');

    expect(
      (await h.admin('PATCH', '/api/admin/settings', { settings: { otel_exporter_otlp_endpoint: '' } }))
        .status,
    ).toBe(200);
    // Picked up on a look at the settings after the caches saw the change (seconds).
    await expect
      .poll(
        async () => {
          const untraced = newTraceId();
          expect((await chat(untraced)).status).toBe(200);
          await new Promise((resolve) => setTimeout(resolve, 1_500));
          return receiver.spans().some((s) => s.traceId === untraced);
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toBe(false);
    // And it stays off.
    const before = receiver.spans().length;
    for (let i = 0; i < 3; i++) expect((await chat(newTraceId())).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(receiver.spans().length).toBe(before);
  }, 60_000);
});
