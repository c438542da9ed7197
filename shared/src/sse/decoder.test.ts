import { describe, expect, it } from 'vitest';
import { decodeSse, type SseEvent } from './decoder';
import { encodeSseEvent } from './encoder';

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

async function collect(stream: ReadableStream<SseEvent>): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const e of stream as unknown as AsyncIterable<SseEvent>) out.push(e);
  return out;
}

/** Every split point, byte by byte: the decoder must give the same events. */
async function decodeAtEverySplit(bytes: Uint8Array): Promise<SseEvent[][]> {
  const results: SseEvent[][] = [];
  for (let cut = 0; cut <= bytes.length; cut++) {
    results.push(await collect(decodeSse(streamOf([bytes.slice(0, cut), bytes.slice(cut)]))));
  }
  results.push(await collect(decodeSse(streamOf(Array.from(bytes, (b) => new Uint8Array([b]))))));
  return results;
}

describe('SSE decoder', () => {
  const source =
    'event: message_start\r\ndata: {"a":"é✓"}\r\n\r\n: comment\n\ndata: line1\ndata: line2\nid: 7\n\ndata:[DONE]\r\r';
  const expected: SseEvent[] = [
    { event: 'message_start', data: '{"a":"é✓"}' },
    { data: 'line1\nline2', id: '7' },
    // The last event ID carries over to later events, as the standard says.
    { data: '[DONE]', id: '7' },
  ];

  it('decodes named events, comments, multi-line data and all line endings at any split', async () => {
    for (const events of await decodeAtEverySplit(new TextEncoder().encode(source))) {
      expect(events).toEqual(expected);
    }
  });

  it('dispatches a final event without a trailing blank line', async () => {
    const events = await collect(decodeSse(streamOf([new TextEncoder().encode('data: tail')])));
    expect(events).toEqual([{ data: 'tail' }]);
  });

  it('round-trips through the encoder', async () => {
    const bytes = expected.map(encodeSseEvent);
    const total = new Uint8Array(bytes.reduce((n, b) => n + b.length, 0));
    let offset = 0;
    for (const b of bytes) {
      total.set(b, offset);
      offset += b.length;
    }
    expect(await collect(decodeSse(streamOf([total])))).toEqual(expected);
  });
});
