import type { StreamEvent, Usage } from '../canonical/types';
import { mergeUsage } from '../wire/common/usage';

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

export interface StreamOutcome {
  usage: Usage | null;
  completed: boolean;
  /** The first error event's message (the upstream's, or the decoder's), or null. */
  failure: string | null;
  /** Characters of text, reasoning and tool arguments, for an estimate when no usage came. */
  answerChars: number;
}

/**
 * Canonical usage as the stream reports it, merged across events (null when none came), and
 * the error the stream ended with.
 */
export function createUsageTap(): Tap<StreamEvent, StreamEvent, StreamOutcome> {
  const done = settler<StreamOutcome>();
  let usage: Usage | null = null;
  let failure: string | null = null;
  let answerChars = 0;
  const transformer: CancellableTransformer<StreamEvent, StreamEvent> = {
    transform(event, controller) {
      if (event.type === 'usage') usage = mergeUsage(usage, event.usage);
      else if (event.type === 'text_delta' || event.type === 'reasoning_delta')
        answerChars += event.text.length;
      else if (event.type === 'tool_call_delta') answerChars += event.argumentsDelta.length;
      else if (event.type === 'error') failure ??= event.message;
      controller.enqueue(event);
    },
    flush() {
      done.settle({ usage, completed: true, failure, answerChars });
    },
    cancel() {
      done.settle({ usage, completed: false, failure, answerChars });
    },
  };
  return { transform: new TransformStream(transformer), result: done.promise };
}
