import type { StreamEvent, Usage } from '../canonical/types';

/**
 * Side channels on a stream the client is reading. Each passes chunks on unchanged and
 * settles its promise when the stream ends, is cancelled (the client left) or fails; the
 * promises never reject, so they are safe to hand to waitUntil.
 */
export interface Tap<I, O, R> {
  transform: TransformStream<I, O>;
  result: Promise<R>;
}

interface Settler<R> {
  promise: Promise<R>;
  settle: (value: R) => void;
}

function settler<R>(): Settler<R> {
  let settle: (value: R) => void = () => {};
  const promise = new Promise<R>((resolve) => {
    settle = resolve;
  });
  return { promise, settle };
}

/** `cancel` is in the Streams standard (Node, workerd) but not yet in TypeScript's types. */
type CancellableTransformer<I, O> = Transformer<I, O> & { cancel: () => void };

/** Canonical usage as the stream reports it, merged across events; null when none came. */
export function createUsageTap(): Tap<StreamEvent, StreamEvent, { usage: Usage | null; completed: boolean }> {
  const done = settler<{ usage: Usage | null; completed: boolean }>();
  let usage: Usage | null = null;
  const transformer: CancellableTransformer<StreamEvent, StreamEvent> = {
    transform(event, controller) {
      if (event.type === 'usage') usage = mergeUsage(usage, event.usage);
      controller.enqueue(event);
    },
    flush() {
      done.settle({ usage, completed: true });
    },
    cancel() {
      done.settle({ usage, completed: false });
    },
  };
  return { transform: new TransformStream(transformer), result: done.promise };
}

/** Vendors report input and output usage in separate events; later non-zero values win. */
export function mergeUsage(current: Usage | null, next: Usage): Usage {
  if (current === null) return next;
  return {
    inputTokens: next.inputTokens || current.inputTokens,
    outputTokens: next.outputTokens || current.outputTokens,
    cachedInputTokens: next.cachedInputTokens ?? current.cachedInputTokens,
  };
}

/** The exact bytes the client received, or null when the stream did not complete. */
export function createByteCollector(): Tap<Uint8Array, Uint8Array, Uint8Array | null> {
  const done = settler<Uint8Array | null>();
  const chunks: Uint8Array[] = [];
  const transformer: CancellableTransformer<Uint8Array, Uint8Array> = {
    transform(chunk, controller) {
      chunks.push(chunk.slice());
      controller.enqueue(chunk);
    },
    flush() {
      done.settle(concat(chunks));
    },
    cancel() {
      done.settle(null);
    },
  };
  return { transform: new TransformStream(transformer), result: done.promise };
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
