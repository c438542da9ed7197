/**
 * Test support for stream decoders: feed the same bytes split every possible way and
 * collect what comes out. Used only by *.test.ts files.
 */
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

/** Every two-chunk split (cut at each byte, both ends included), then one byte per chunk. */
export function everySplit(bytes: Uint8Array): Uint8Array[][] {
  const splits: Uint8Array[][] = [];
  for (let cut = 0; cut <= bytes.length; cut++) splits.push([bytes.slice(0, cut), bytes.slice(cut)]);
  splits.push(Array.from(bytes, (b) => Uint8Array.of(b)));
  return splits;
}

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
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
