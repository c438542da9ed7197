import type { Usage } from '../../canonical/types';
import { createEventDecoder, createLineDecoder, type SseEvent } from '../../sse/decoder';

export interface NativeUsageReader {
  /** Passes the upstream bytes through untouched, in the same chunks. */
  transform: TransformStream<Uint8Array, Uint8Array>;
  /**
   * The usage the stream reported, once it ends (or is cancelled or aborted): null when it
   * reported none. Never rejects, so it is safe to hand to waitUntil.
   */
  usage: Promise<Usage | null>;
}

/** Reads one SSE event of a format and returns the usage so far (or the previous value). */
export type UsageObserver = (event: SseEvent, current: Usage | null) => Usage | null;

/**
 * Taps a native (passthrough) SSE stream for usage. The bytes are copied into the shared SSE
 * decoder on the side; the client's stream never waits for the decoding.
 */
export function createNativeUsageReader(observe: UsageObserver): NativeUsageReader {
  const lines = createLineDecoder();
  const writer = lines.writable.getWriter();
  let usage: Usage | null = null;
  const read = async (): Promise<Usage | null> => {
    const events = lines.readable.pipeThrough(createEventDecoder()).getReader();
    for (;;) {
      const { done, value } = await events.read();
      if (done) return usage;
      try {
        usage = observe(value, usage);
      } catch {
        // A malformed event must not cost the passthrough; keep what was seen before it.
      }
    }
  };
  const result = read().catch(() => usage);
  // Closing (not aborting) on cancel lets the decoder finish the chunks already handed to it,
  // so a client that leaves after the last event still leaves its usage behind.
  const stop = (): void => {
    writer.close().catch(() => {});
  };
  // `cancel` (reader cancelled or writer aborted) is in the Streams standard and in Node and
  // workerd, but not yet in TypeScript's DOM types.
  const transformer: Transformer<Uint8Array, Uint8Array> & { cancel: () => void } = {
    transform(chunk, controller) {
      controller.enqueue(chunk);
      // A copy, because whoever reads the passthrough side may transfer (detach) the buffer.
      writer.write(chunk.slice()).catch(() => {});
    },
    async flush() {
      await writer.close().catch(() => {});
    },
    cancel: stop,
  };
  return { transform: new TransformStream(transformer), usage: result };
}

/** Native streams carry `[DONE]` too: data that is not JSON reads as undefined. */
export { tryParseJson as parseJsonData } from '../../util/json';
