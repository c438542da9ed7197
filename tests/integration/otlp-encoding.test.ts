// The gateway's own OTLP encoders (shared/src/telemetry/otlp-traces.ts, no generated code)
// against the official OTLP definitions: what the exporter sends, in either encoding, is what
// the receiver decodes with opentelemetry-proto's .proto files.

import type { SpanData } from '@sluice/shared/telemetry';
import { createSpanExporter } from '@sluice/shared/telemetry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OtlpReceiver, startOtlpReceiver } from '../helpers/otlp-receiver';

let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(() => receiver.close());

const TRACE = '0af7651916cd43dd8448eb211c80319c';

function richSpan(spanId: string): SpanData {
  return {
    traceId: TRACE,
    spanId,
    parentSpanId: 'b7ad6b7169203331',
    traceState: 'vendor=x',
    flags: 1,
    name: 'chat gpt-5 ✓',
    kind: 'client',
    startMs: 1_760_000_000_123.456,
    endMs: 1_760_000_000_200.5,
    attributes: {
      text: 'héllo',
      int: 42,
      negative: -7,
      big: 9_007_199_254_740_991,
      double: 0.125,
      yes: true,
      no: false,
      words: ['a', 'b'],
      numbers: [1, 2.5],
    },
    events: [{ name: 'first chunk', atMs: 1_760_000_000_150, attributes: { bytes: 12 } }],
    status: { code: 'error', message: 'upstream 503' },
  };
}

describe.each(['http/protobuf', 'http/json'] as const)('OTLP traces over %s', (protocol) => {
  it('decode, field by field, as they were recorded', async () => {
    const spanId = crypto.randomUUID().replaceAll('-', '').slice(0, 16);
    const exporter = createSpanExporter({
      url: `${receiver.url}/v1/traces`,
      protocol,
      headers: { 'x-collector-key': 'k' },
      compression: protocol === 'http/json' ? 'gzip' : 'none',
      timeoutMs: 2_000,
      delayMs: 10,
      maxQueue: 10,
      maxBatch: 10,
      resource: { 'service.name': 'sluice-gateway', 'service.version': '0.1.0' },
      scope: { name: 'sluice', version: '0.1.0' },
      fetch,
      onDropped: (count, reason) => {
        throw new Error(`dropped ${count}: ${reason}`);
      },
    });
    exporter.add(richSpan(spanId));
    await exporter.flush();
    const [span] = (await receiver.waitForSpans((all) => all.some((s) => s.spanId === spanId))).filter(
      (s) => s.spanId === spanId,
    );
    expect(span).toMatchObject({
      traceId: TRACE,
      parentSpanId: 'b7ad6b7169203331',
      traceState: 'vendor=x',
      flags: 1,
      name: 'chat gpt-5 ✓',
      kind: 'CLIENT',
      startNs: 1_760_000_000_123_456_000n,
      endNs: 1_760_000_000_200_500_000n,
      status: { code: 'ERROR', message: 'upstream 503' },
      resource: { 'service.name': 'sluice-gateway', 'service.version': '0.1.0' },
      scope: { name: 'sluice', version: '0.1.0' },
      encoding: protocol === 'http/json' ? 'json' : 'protobuf',
    });
    expect(span?.attributes).toEqual({
      text: 'héllo',
      int: 42,
      negative: -7,
      big: 9_007_199_254_740_991,
      double: 0.125,
      yes: true,
      no: false,
      words: ['a', 'b'],
      numbers: [1, 2.5],
    });
    expect(span?.events).toEqual([
      { name: 'first chunk', timeNs: 1_760_000_000_150_000_000n, attributes: { bytes: 12 } },
    ]);
    const request = receiver.requests().at(-1);
    expect(request?.headers['x-collector-key']).toBe('k');
  });
});
