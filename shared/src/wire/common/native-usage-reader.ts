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

/** Splits SSE bytes into events as they come and keeps the usage they report. */
class UsageScanner {
  usage: Usage | null = null;
  readonly #text = new TextDecoder();
  readonly #lines = new LineSplitter();
  readonly #events = new EventAssembler();
  readonly #observe: UsageObserver;
  readonly #drop: ((event: SseEvent) => boolean) | undefined;
  /** Drop mode: the lines of the event being read, and the text of the events kept so far. */
  #held: string[] = [];
  #kept = '';
  #dropping = false;
  readonly #onEvent = (event: SseEvent): void => {
    if (!USAGE_OBJECT.test(event.data)) return;
    try {
      this.usage = this.#observe(event, this.usage);
    } catch {
      // A malformed event must not cost the passthrough; keep what was seen before it.
    }
    if (this.#drop?.(event)) this.#dropping = true;
  };
  readonly #onLine = (line: string): void => {
    if (this.#drop) this.#held.push(line);
    this.#events.line(line, this.#onEvent);
    if (!this.#drop || line !== '') return;
    if (!this.#dropping) this.#kept += `${this.#held.join('\n')}\n`;
    this.#held = [];
    this.#dropping = false;
  };

  constructor(observe: UsageObserver, drop?: (event: SseEvent) => boolean) {
    this.#observe = observe;
    this.#drop = drop;
  }

  push(chunk: Uint8Array): void {
    this.#lines.push(this.#text.decode(chunk, { stream: true }), this.#onLine);
  }

  end(): void {
    this.#lines.push(this.#text.decode(), this.#onLine);
    this.#lines.end(this.#onLine);
    this.#events.end(this.#onEvent);
    if (this.#drop && !this.#dropping && this.#held.length > 0) this.#kept += this.#held.join('\n');
  }

  /** Drop mode: the text of the complete events kept since the last call. */
  takeKept(): string {
    const kept = this.#kept;
    this.#kept = '';
    return kept;
  }
}

/**
 * Taps a native (passthrough) SSE stream for usage, in the one stream stage it adds: each
 * chunk is split into events as it passes (no copy, no side stream) and only the events that
 * carry a usage object are parsed. With `drop`, whole events leave the stream.
 */
export function createNativeUsageReader(
  observe: UsageObserver,
  options: NativeTapOptions = {},
): NativeUsageReader {
  const scanner = new UsageScanner(observe, options.drop);
  const encoder = new TextEncoder();
  const dropping = options.drop !== undefined;
  let settle: (completed: boolean) => void = () => {};
  const completed = new Promise<boolean>((resolve) => {
    settle = resolve;
  });
  const emitKept = (controller: TransformStreamDefaultController<Uint8Array>) => {
    const kept = scanner.takeKept();
    if (kept !== '') controller.enqueue(encoder.encode(kept));
  };
  const transformer: Transformer<Uint8Array, Uint8Array> & { cancel: () => void } = {
    transform(chunk, controller) {
      scanner.push(chunk);
      if (dropping) emitKept(controller);
      else controller.enqueue(chunk);
    },
    flush(controller) {
      scanner.end();
      if (dropping) emitKept(controller);
      settle(true);
    },
    // `cancel` (reader cancelled or writer aborted) is in the Streams standard and in Node and
    // workerd, but not yet in TypeScript's DOM types.
    cancel: () => settle(false),
  };
  const stage = new TransformStream(transformer);
  return { transform: stage, usage: completed.then(() => scanner.usage), completed };
}

/**
 * Reads a copy of a native SSE stream (one branch of a tee) for usage, while the other branch
 * goes to the client without passing through JavaScript: no stream stage of its own. Settles
 * when the stream ends (completed) or breaks off (not completed, with the usage seen so far);
 * never rejects.
 */
export async function watchNativeUsage(
  copy: ReadableStream<Uint8Array>,
  observe: UsageObserver,
): Promise<{ usage: Usage | null; completed: boolean }> {
  const scanner = new UsageScanner(observe);
  const reader = copy.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      scanner.push(value);
    }
    scanner.end();
    return { usage: scanner.usage, completed: true };
  } catch {
    return { usage: scanner.usage, completed: false };
  }
}

/** Native streams carry `[DONE]` too: data that is not JSON reads as undefined. */
export { tryParseJson as parseJsonData } from '../../util/json';
