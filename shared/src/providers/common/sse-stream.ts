/**
 * Vendor SSE bytes → canonical events. The byte/line/event layers come from sse/decoder;
 * a vendor supplies only an `SseEventMapper` holding its per-stream state, so no vendor
 * branch lives in the shared stream loop.
 */
import type { StreamEvent } from '../../canonical/types';
import { createEventDecoder, createLineDecoder, type SseEvent } from '../../sse/decoder';

export interface SseEventMapper {
  /** Canonical events for one SSE event (often none). */
  onEvent(event: SseEvent): StreamEvent[];
  /** Events still owed when the bytes end: closing blocks, or an error for a cut-off stream. */
  onEnd(): StreamEvent[];
}

export function createSseStreamDecoder(mapper: SseEventMapper): TransformStream<Uint8Array, StreamEvent> {
  const lines = createLineDecoder();
  const readable = lines.readable.pipeThrough(createEventDecoder()).pipeThrough(
    new TransformStream<SseEvent, StreamEvent>({
      transform(event, controller) {
        for (const out of mapper.onEvent(event)) controller.enqueue(out);
      },
      flush(controller) {
        for (const out of mapper.onEnd()) controller.enqueue(out);
      },
    }),
  );
  // A readable/writable pair is all pipeThrough needs; errors flow forward and
  // cancellation flows back through the inner pipes.
  return { writable: lines.writable, readable };
}
