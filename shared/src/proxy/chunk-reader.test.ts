import { describe, expect, it } from 'vitest';
import { chunkReader } from './chunk-reader';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (chunk: Uint8Array) => new TextDecoder().decode(chunk);

/** A byte stream (as a fetch body is) that enqueues the chunks given, one per pull. */
function byteStream(
  chunks: Uint8Array<ArrayBuffer>[],
  cancelled: unknown[] = [],
): ReadableStream<Uint8Array> {
  return new ReadableStream({
    type: 'bytes',
    pull(controller) {
      const next = chunks.shift();
      if (next !== undefined) return controller.enqueue(next);
      // A byte stream's read pending at its end is answered with no bytes (as a fetch body's is).
      controller.close();
      controller.byobRequest?.respond(0);
    },
    cancel(reason) {
      cancelled.push(reason);
    },
  });
}

async function readAll(source: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const reader = chunkReader(source);
  const chunks: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    chunks.push(value);
  }
}

describe('the reads of a stream stage', () => {
  it('copy each chunk of a byte stream out at its size, so a chunk kept is not read into again', async () => {
    const chunks = await readAll(
      byteStream([bytes('data: {"a":1}\n\n'), bytes('data: {"b":2}\n\n'), bytes('x')]),
    );
    expect(chunks.map(text)).toEqual(['data: {"a":1}\n\n', 'data: {"b":2}\n\n', 'x']);
    for (const chunk of chunks) expect(chunk.buffer.byteLength).toBe(chunk.byteLength);
    expect(new Set(chunks.map((chunk) => chunk.buffer)).size).toBe(3);
  });

  it('split a chunk larger than the read buffer no finer than 4 KiB, every byte in order', async () => {
    const large = Uint8Array.from({ length: 10_000 }, (_, i) => i % 251);
    const chunks = await readAll(byteStream([large.slice()]));
    expect(chunks.map((chunk) => chunk.byteLength)).toEqual([4096, 4096, 1808]);
    const joined = new Uint8Array(10_000);
    let at = 0;
    for (const chunk of chunks) {
      joined.set(chunk, at);
      at += chunk.byteLength;
    }
    expect(joined).toEqual(large);
  });

  it('read any other stream as it comes (its chunks are its own already)', async () => {
    const given = [bytes('one'), bytes('two')];
    const source = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of given) controller.enqueue(chunk);
        controller.close();
      },
    });
    const chunks = await readAll(source);
    expect(chunks).toHaveLength(2);
    expect(chunks[0]).toBe(given[0]);
    expect(chunks[1]).toBe(given[1]);
  });

  it('cancel the byte stream with the reason given', async () => {
    const cancelled: unknown[] = [];
    const reader = chunkReader(byteStream([bytes('a'), bytes('b')], cancelled));
    expect(text((await reader.read()).value as Uint8Array)).toBe('a');
    await reader.cancel('client left');
    expect(cancelled).toEqual(['client left']);
  });
});
