import type { Usage } from '../../canonical/types';
import type { SseEvent } from '../../sse/decoder';
import { EventAssembler, LineSplitter } from '../../sse/parser';

export interface NativeUsageReader {
  /**
   * Passes the upstream bytes through in the same chunks, untouched (unless events are
   * dropped: then the chunk's remaining events, re-joined with \n line endings).
   */
  transform: TransformStream<Uint8Array, Uint8Array>;
  /**
   * The usage the stream reported, once it ends (or is cancelled or aborted): null when it
   * reported none. Never rejects, so it is safe to hand to waitUntil.
   */
  usage: Promise<Usage | null>;
  /** True when the stream ended normally, false when it was cancelled or broke off. Never rejects. */
  completed: Promise<boolean>;
}

/** Reads one SSE event of a format and returns the usage so far (or the previous value). */
export type UsageObserver = (event: SseEvent, current: Usage | null) => Usage | null;

export interface NativeTapOptions {
  /** Events (among those that carry a usage object) the client must not see. */
  drop?(event: SseEvent): boolean;
}

/**
 * Only events holding a usage object are parsed as JSON: every format reports usage as
 * `"usage": {…}`, while most chunks carry no usage or `"usage": null`.
 */
const USAGE_OBJECT = /"usage"\s*:\s*\{/;

/**
 * Taps a native (passthrough) SSE stream for usage, in the one stream stage it adds: each
 * chunk is split into events as it passes (no copy, no side stream) and only the events that
 * carry a usage object are parsed. With `drop`, whole events leave the stream.
 */
export function createNativeUsageReader(
  observe: UsageObserver,
  options: NativeTapOptions = {},
): NativeUsageReader {
  const text = new TextDecoder();
  const lines = new LineSplitter();
  const events = new EventAssembler();
  const encoder = new TextEncoder();
  const drop = options.drop;
  let usage: Usage | null = null;
  let settle: (completed: boolean) => void = () => {};
  const completed = new Promise<boolean>((resolve) => {
    settle = resolve;
  });
  // Lines of the event being read, kept only when events may be dropped.
  let held: string[] = [];
  let out = '';
  let dropping = false;

  const onEvent = (event: SseEvent): void => {
    if (!USAGE_OBJECT.test(event.data)) return;
    try {
      usage = observe(event, usage);
    } catch {
      // A malformed event must not cost the passthrough; keep what was seen before it.
    }
    if (drop?.(event)) dropping = true;
  };
  const onLine = (line: string): void => {
    if (drop) held.push(line);
    events.line(line, onEvent);
    if (!drop || line !== '') return;
    if (!dropping) out += `${held.join('\n')}\n`;
    held = [];
    dropping = false;
  };
  const transformer: Transformer<Uint8Array, Uint8Array> & { cancel: () => void } = {
    transform(chunk, controller) {
      lines.push(text.decode(chunk, { stream: true }), onLine);
      if (!drop) return controller.enqueue(chunk);
      if (out !== '') controller.enqueue(encoder.encode(out));
      out = '';
    },
    flush(controller) {
      lines.push(text.decode(), onLine);
      lines.end(onLine);
      events.end(onEvent);
      if (drop) {
        if (!dropping && held.length > 0) out += held.join('\n');
        if (out !== '') controller.enqueue(encoder.encode(out));
      }
      settle(true);
    },
    // `cancel` (reader cancelled or writer aborted) is in the Streams standard and in Node and
    // workerd, but not yet in TypeScript's DOM types.
    cancel: () => settle(false),
  };
  const stage = new TransformStream(transformer);
  return { transform: stage, usage: completed.then(() => usage), completed };
}

/** Native streams carry `[DONE]` too: data that is not JSON reads as undefined. */
export { tryParseJson as parseJsonData } from '../../util/json';
