import { describe, expect, it } from 'vitest';
import { createSpanExporter, type ExporterOptions } from './exporter';
import type { SpanData } from './span';

function span(name: string): SpanData {
  return {
    traceId: 'a'.repeat(32),
    spanId: 'b'.repeat(16),
    parentSpanId: null,
    traceState: '',
    flags: 1,
    name,
    kind: 'server',
    startMs: 1_000,
    endMs: 1_002,
    attributes: {},
    events: [],
    status: { code: 'unset', message: '' },
  };
}

/** The collector, as the exporter's fetch port reaches it: what it was sent, and how it answers. */
function collector(answer: (call: number) => Promise<Response>) {
  const sent: { body: string; headers: Record<string, string> }[] = [];
  const fetch = (async (_url: string, init: RequestInit) => {
    sent.push({ body: String(init.body), headers: init.headers as Record<string, string> });
    return answer(sent.length);
  }) as typeof globalThis.fetch;
  return { sent, fetch };
}

function options(
  fetch: typeof globalThis.fetch,
  dropped: string[],
  overrides: Partial<ExporterOptions> = {},
) {
  return {
    url: 'http://collector/v1/traces',
    protocol: 'http/json' as const,
    headers: { 'api-key': 'k' },
    compression: 'none' as const,
    timeoutMs: 200,
    delayMs: 10,
    maxQueue: 5,
    maxBatch: 3,
    resource: { 'service.name': 'test' },
    scope: { name: 'sluice', version: '0' },
    fetch,
    onDropped: (count: number, reason: string) => dropped.push(`${count} ${reason}`),
    ...overrides,
  };
}

describe('the batch span exporter', () => {
  it('sends nothing until scheduled, and nothing when scheduled with nothing queued', async () => {
    const { sent, fetch } = collector(async () => new Response('{}'));
    const kept: Promise<unknown>[] = [];
    const exporter = createSpanExporter(options(fetch, []));
    exporter.schedule((work) => kept.push(work));
    exporter.add(span('a'));
    expect(kept).toHaveLength(0);
    exporter.schedule((work) => kept.push(work));
    await Promise.all(kept);
    expect(sent).toHaveLength(1);
  });

  it('sends queued spans together after the delay, in batches, in the background of the request that scheduled first', async () => {
    const { sent, fetch } = collector(async () => new Response('{}'));
    const kept: Promise<unknown>[] = [];
    const exporter = createSpanExporter(options(fetch, []));
    for (const name of ['a', 'b', 'c', 'd']) {
      exporter.add(span(name));
      exporter.schedule((work) => kept.push(work));
    }
    expect(kept).toHaveLength(1);
    expect(sent).toHaveLength(0);
    await Promise.all(kept);
    expect(sent.map((s) => JSON.parse(s.body).resourceSpans[0].scopeSpans[0].spans.length)).toEqual([3, 1]);
    expect(sent[0]?.headers).toMatchObject({ 'api-key': 'k', 'content-type': 'application/json' });
  });

  it('drops and counts what outgrows the queue, and what the collector refuses or never answers', async () => {
    const dropped: string[] = [];
    const { fetch } = collector((call) =>
      call === 1 ? Promise.resolve(new Response('down', { status: 503 })) : new Promise<Response>(() => {}),
    );
    const kept: Promise<unknown>[] = [];
    const exporter = createSpanExporter(options(fetch, dropped, { maxBatch: 5 }));
    for (let i = 0; i < 7; i++) exporter.add(span(`s${i}`));
    exporter.schedule((work) => kept.push(work));
    expect(dropped).toEqual(['1 queue_full', '1 queue_full']);
    await Promise.all(kept);
    expect(dropped).toEqual(['1 queue_full', '1 queue_full', '5 export_failed']);
    exporter.add(span('late'));
    exporter.schedule((work) => kept.push(work));
    await Promise.all(kept);
    // The hanging export was given up at the timeout (200 ms), never waited on beyond it.
    expect(dropped.at(-1)).toBe('1 export_failed');
  });

  it('sends protobuf by default, gzipped when asked', async () => {
    const seen: { type?: string; encoding?: string; bytes: number }[] = [];
    const fetch = (async (_url: string, init: RequestInit) => {
      const headers = init.headers as Record<string, string>;
      seen.push({
        type: headers['content-type'],
        encoding: headers['content-encoding'],
        bytes: (init.body as ArrayBuffer | Uint8Array).byteLength,
      });
      return new Response(null);
    }) as typeof globalThis.fetch;
    const exporter = createSpanExporter(
      options(fetch, [], { protocol: 'http/protobuf', compression: 'gzip' }),
    );
    exporter.schedule();
    exporter.add(span('zipped'));
    await exporter.flush();
    expect(seen).toEqual([{ type: 'application/x-protobuf', encoding: 'gzip', bytes: expect.any(Number) }]);
  });
});
