import { concatBytes } from '../util/bytes';
import { DEFAULT_DISCARD_BOUNDS, type DiscardBounds, discardRest } from './discard-body';

export type BoundedBody = { bytes: Uint8Array<ArrayBuffer> } | { tooLarge: true; drained: boolean };

/**
 * A body sent without a length (chunked), read whole while it stays within `maxBytes`. Past
 * that, the rest is read and dropped within `bounds` before the caller refuses it, so that the
 * client still sending gets the refusal (discard-body.ts); `drained` says whether it all came.
 */
export async function readBodyUpTo(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  bounds: DiscardBounds = DEFAULT_DISCARD_BOUNDS,
): Promise<BoundedBody> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) return { tooLarge: true, drained: await discardRest(reader, bounds) };
    chunks.push(value);
  }
  return { bytes: concatBytes(chunks) as Uint8Array<ArrayBuffer> };
}
