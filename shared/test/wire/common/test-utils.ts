/** Helpers for the wire tests only (imported by *.test.ts, never by runtime code). */
import type { StreamEvent } from '../../../src/canonical/types';
import { decodeSse, type SseEvent } from '../../../src/sse/decoder';
import { concatBytes } from '../../../src/util/bytes';

export { concatBytes };

export function streamOf<T>(items: readonly T[]): ReadableStream<T> {
  return new ReadableStream<T>({
    start(controller) {
      for (const item of items) controller.enqueue(item);
      controller.close();
    },
  });
}

export async function collect<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    out.push(value);
  }
}

/** Runs canonical events through an encoder and returns all the bytes it wrote. */
export async function encodeEvents(
  encoder: TransformStream<StreamEvent, Uint8Array>,
  events: readonly StreamEvent[],
): Promise<Uint8Array> {
  return concatBytes(await collect(streamOf(events).pipeThrough(encoder)));
}

export const utf8 = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

/** Decodes SSE bytes with the shared decoder after splitting them into the given chunks. */
export async function decodeChunks(chunks: readonly Uint8Array[]): Promise<SseEvent[]> {
  return collect(decodeSse(streamOf(chunks)));
}

/** Every two-piece split of `bytes`, plus one byte per chunk. */
export function everySplit(bytes: Uint8Array): Uint8Array[][] {
  const splits: Uint8Array[][] = [];
  for (let cut = 0; cut <= bytes.length; cut++) splits.push([bytes.slice(0, cut), bytes.slice(cut)]);
  splits.push(Array.from(bytes, (b) => new Uint8Array([b])));
  return splits;
}

/**
 * For streams too long to try every two-piece split in a unit test: one byte per chunk
 * (which cuts at every boundary at once), awkward sizes, and two-piece splits every `stride`.
 */
export function sampledSplits(bytes: Uint8Array, stride: number): Uint8Array[][] {
  const splits: Uint8Array[][] = [Array.from(bytes, (b) => new Uint8Array([b])), awkwardChunks(bytes)];
  for (let cut = 0; cut <= bytes.length; cut += stride) splits.push([bytes.slice(0, cut), bytes.slice(cut)]);
  return splits;
}

/** Chunks of awkward, varying sizes (1, 2, 3, 5, 7 bytes, …) that cut through everything. */
export function awkwardChunks(bytes: Uint8Array): Uint8Array[] {
  const sizes = [1, 2, 3, 5, 7, 11, 13];
  const out: Uint8Array[] = [];
  for (let offset = 0, i = 0; offset < bytes.length; i++) {
    const size = sizes[i % sizes.length]!;
    out.push(bytes.slice(offset, offset + size));
    offset += size;
  }
  return out;
}

/** A fetch for an SDK client that answers every request with the given body, and records it. */
export function fakeFetch(
  body: Uint8Array | string,
  contentType = 'text/event-stream',
): { fetch: typeof fetch; requests: Array<{ url: string; body: unknown }> } {
  const requests: Array<{ url: string; body: unknown }> = [];
  const fetchImpl = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const text = typeof init?.body === 'string' ? init.body : '';
    requests.push({ url: String(input), body: text === '' ? undefined : JSON.parse(text) });
    const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
    return new Response(streamOf(awkwardChunks(bytes)), {
      status: 200,
      headers: { 'content-type': contentType },
    });
  };
  return { fetch: fetchImpl as typeof fetch, requests };
}
