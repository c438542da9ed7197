/**
 * Test support for stream decoders (imported by *.test.ts only): feed the same bytes split
 * every possible way and collect what comes out.
 */
import type { StreamEvent } from '../../../src/canonical/types';

export { concatBytes as concat } from '../../../src/util/bytes';

export async function runTransform<I, O>(transform: TransformStream<I, O>, chunks: I[]): Promise<O[]> {
  const source = new ReadableStream<I>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  const out: O[] = [];
  const reader = source.pipeThrough(transform).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    out.push(value);
  }
}

function bytewise(bytes: Uint8Array): Uint8Array[] {
  return Array.from(bytes, (b) => Uint8Array.of(b));
}

/** Every two-chunk split (cut at each byte, both ends included), then one byte per chunk. */
export function everySplit(bytes: Uint8Array): Uint8Array[][] {
  const splits: Uint8Array[][] = [];
  for (let cut = 0; cut <= bytes.length; cut++) splits.push([bytes.slice(0, cut), bytes.slice(cut)]);
  splits.push(bytewise(bytes));
  return splits;
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
    const events = await runTransform(createDecoder(), chunks);
    seen.set(JSON.stringify(events), events);
  }
  return [...seen.values()];
}

export function fromHex(hex: string): Uint8Array {
  return Uint8Array.from({ length: hex.length / 2 }, (_, i) =>
    Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16),
  );
}

/** A copy with one byte XOR-ed, to simulate corruption in transit. */
export function corrupt(bytes: Uint8Array, index: number, mask = 0x01): Uint8Array {
  const out = bytes.slice();
  out[index] = (out[index] ?? 0) ^ mask;
  return out;
}
