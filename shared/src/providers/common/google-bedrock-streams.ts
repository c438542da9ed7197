/**
 * Joins stream stages into one writable/readable pair, so an adapter can expose
 * bytes → SSE events → canonical events as the single transform its port asks for.
 * Backpressure, errors and cancellation flow through the inner pipes.
 */
export function pipeTransforms<I, M1, M2, O>(
  first: TransformStream<I, M1>,
  middle: TransformStream<M1, M2>,
  last: TransformStream<M2, O>,
): TransformStream<I, O> {
  const readable = first.readable.pipeThrough(middle).pipeThrough(last);
  // A TransformStream is structurally this pair; callers only ever pipe through it.
  return { writable: first.writable, readable };
}
