/**
 * Test support for stream decoders (imported by *.test.ts only): feed fixture bytes split
 * at every boundary and collect the canonical events.
 */
import type { StreamEvent } from '../../canonical/types';

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

export async function decodeChunks(
  decoder: TransformStream<Uint8Array, StreamEvent>,
  chunks: Uint8Array[],
): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  const reader = streamOf(chunks).pipeThrough(decoder).getReader();
  for (;;) {
    const next = await reader.read();
    if (next.done) return out;
    out.push(next.value);
  }
}

/** Every two-chunk split (cut at 0..length), then one byte per chunk. */
export function everySplit(bytes: Uint8Array): Uint8Array[][] {
  const variants: Uint8Array[][] = [];
  for (let cut = 0; cut <= bytes.length; cut++) variants.push([bytes.slice(0, cut), bytes.slice(cut)]);
  variants.push(bytewise(bytes));
  return variants;
}

function bytewise(bytes: Uint8Array): Uint8Array[] {
  return Array.from(bytes, (b) => new Uint8Array([b]));
}

/**
 * Decodes the split variants (all of them, or only whole and one-byte-per-chunk for quick
 * checks); returns the distinct results, which is one list when the decoder is sound.
 */
export async function decodeAtEverySplit(
  createDecoder: () => TransformStream<Uint8Array, StreamEvent>,
  text: string,
  mode: 'every-split' | 'whole-and-bytewise' = 'every-split',
): Promise<StreamEvent[][]> {
  const bytes = new TextEncoder().encode(text);
  const variants = mode === 'every-split' ? everySplit(bytes) : [[bytes], bytewise(bytes)];
  const seen = new Map<string, StreamEvent[]>();
  for (const chunks of variants) {
    const events = await decodeChunks(createDecoder(), chunks);
    seen.set(JSON.stringify(events), events);
  }
  return [...seen.values()];
}
