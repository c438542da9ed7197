import type { CancellableTransformer, StageController } from './idle-guard';

/**
 * The exact bytes a client got, kept for the response cache without a stream stage of its
 * own: the stage that writes to the client copies what it writes here (`keptThrough`). On
 * workerd every stage a chunk crosses in JavaScript costs far more than the copy
 * (docs/performance.md).
 */
export interface KeptBytes {
  /** Copies the chunk (the caller may reuse its buffer). Past `limit` bytes nothing is kept. */
  push(chunk: Uint8Array): void;
  /** The stream ended whole: `result` gets the bytes (null when they outgrew the limit). */
  complete(): void;
  /** The stream did not end whole: `result` is null. */
  drop(): void;
  /** Never rejects. */
  result: Promise<Uint8Array | null>;
}

export function createKeptBytes(limit: number): KeptBytes {
  let buffer = new Uint8Array(4_096);
  let length = 0;
  let overflowed = false;
  let settle: (bytes: Uint8Array | null) => void = () => {};
  const result = new Promise<Uint8Array | null>((resolve) => {
    settle = resolve;
  });
  return {
    push(chunk) {
      if (overflowed) return;
      if (length + chunk.length > limit) {
        overflowed = true;
        buffer = new Uint8Array(0);
        return;
      }
      if (length + chunk.length > buffer.length) {
        const grown = new Uint8Array(Math.max(buffer.length * 2, length + chunk.length));
        grown.set(buffer.subarray(0, length));
        buffer = grown;
      }
      buffer.set(chunk, length);
      length += chunk.length;
    },
    complete() {
      settle(overflowed ? null : buffer.slice(0, length));
    },
    drop() {
      settle(null);
    },
    result,
  };
}

/**
 * `transformer` with what it writes to the client kept as well: its controller is wrapped, so
 * the bytes kept are exactly those enqueued, in order. Its flush completes them, its cancel
 * drops them.
 */
export function keptThrough(transformer: CancellableTransformer, kept: KeptBytes): CancellableTransformer {
  let wrapped: StageController | undefined;
  const wrap = (controller: TransformStreamDefaultController<Uint8Array>) => {
    wrapped ??= keepingController(controller, kept);
    return wrapped as TransformStreamDefaultController<Uint8Array>;
  };
  return {
    start: (controller) => transformer.start?.(wrap(controller)),
    transform(chunk, controller) {
      const stage = wrap(controller);
      return transformer.transform ? transformer.transform(chunk, stage) : stage.enqueue(chunk);
    },
    async flush(controller) {
      await transformer.flush?.(wrap(controller));
      kept.complete();
    },
    cancel() {
      kept.drop();
      transformer.cancel?.();
    },
  };
}

function keepingController(controller: StageController, kept: KeptBytes): StageController {
  return {
    get desiredSize() {
      return controller.desiredSize;
    },
    enqueue(chunk?: Uint8Array) {
      if (chunk) kept.push(chunk);
      controller.enqueue(chunk);
    },
    terminate() {
      kept.drop();
      controller.terminate();
    },
    error(reason?: unknown) {
      kept.drop();
      controller.error(reason);
    },
  };
}
