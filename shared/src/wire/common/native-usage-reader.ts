import type { Usage } from '../../canonical/types';
import type { SseEvent } from '../../sse/decoder';
import { EventAssembler, LineSplitter } from '../../sse/parser';
import { answerCharsIn } from './answer-chars';
import { renameModelInData } from './rename-model';
import { createRenamingReader } from './renaming-reader';
import { failureOfEvent } from './stream-failure';

export interface NativeUsageReader {
  /**
   * Passes the upstream bytes through in the same chunks, untouched (unless events are
   * dropped: then the chunk's remaining events, re-joined with \n line endings).
   */
  transform: TransformStream<Uint8Array, Uint8Array>;
  /** The same stage as a transformer, for a caller that merges it into a stage of its own. */
  transformer: SettlingTransformer;
  /**
   * The usage the stream reported, once it ends (or is cancelled or aborted): null when it
   * reported none. Never rejects, so it is safe to hand to waitUntil.
   */
  usage: Promise<Usage | null>;
  /** True when the stream ended normally, false when it was cancelled or broke off. Never rejects. */
  completed: Promise<boolean>;
  /** The failure the stream itself reported (stream-failure.ts), once it ends; null if none. */
  failure: Promise<string | null>;
  /** Characters of the answer passed while no usage had come (answer-chars.ts), once it ends. */
  answerChars: Promise<number>;
}

/** What a reader has read so far. */
export interface ReaderState {
  usage: Usage | null;
  failure: string | null;
  answerChars: number;
}

/** Reads one SSE event of a format and returns the usage so far (or the previous value). */
export type UsageObserver = (event: SseEvent, current: Usage | null) => Usage | null;

/**
 * Changes an event on its way to the client: null drops it, a string replaces its data,
 * undefined leaves it as it was. Called for every event (the model is renamed in each), so it
 * must be cheap for the many it leaves alone; `carriesUsage` is the scanner's own test, reused.
 */
type EventEdit = (event: SseEvent, carriesUsage: boolean) => string | null | undefined;

export interface NativeTapOptions {
  /**
   * Events the client must not see. Only events holding a usage object are offered (the only
   * ones a format drops: PassthroughPlan.dropEvent), so the rest cost no parse.
   */
  drop?(event: SseEvent): boolean;
  /** The client's name for the model, put where each event names the upstream's. */
  clientModel?: string;
}

function editOf({ drop, clientModel }: NativeTapOptions): EventEdit | undefined {
  if (!drop) return undefined;
  return (event, carriesUsage) =>
    carriesUsage && drop(event) ? null : clientModel ? renameModelInData(event.data, clientModel) : undefined;
}

/**
 * Only events holding a usage object are parsed as JSON: every format reports usage as
 * `"usage": {…}`, while most chunks carry no usage or `"usage": null`.
 */
const USAGE_OBJECT = /"usage"\s*:\s*\{/;

/** Splits SSE bytes into events as they come and keeps the usage they report. */
class UsageScanner implements ReaderState {
  usage: Usage | null = null;
  failure: string | null = null;
  answerChars = 0;
  readonly #text = new TextDecoder();
  readonly #lines: LineSplitter;
  readonly #events = new EventAssembler();
  readonly #observe: UsageObserver;
  readonly #edit: EventEdit | undefined;
  /** Edit mode: the lines of the event being read, and the text of the events passed so far. */
  #held: string[] = [];
  #kept = '';
  /** What the edit made of the event being read: null dropped, a string its new data. */
  #edited: string | null | undefined = undefined;
  readonly #onEvent = (event: SseEvent): void => {
    if (this.failure === null) this.failure = failureOfEvent(event);
    const carriesUsage = USAGE_OBJECT.test(event.data);
    // Counted until usage comes: a stream that breaks off (or reports none) is estimated on it.
    if (this.usage === null && !carriesUsage) this.answerChars += answerCharsIn(event.data);
    if (carriesUsage) {
      try {
        this.usage = this.#observe(event, this.usage);
      } catch {
        // A malformed event must not cost the passthrough; keep what was seen before it.
      }
    }
    if (this.#edit) this.#edited = this.#edit(event, carriesUsage);
  };
  readonly #onLine = (line: string): void => {
    if (this.#edit) this.#held.push(line);
    this.#events.line(line, this.#onEvent);
    if (!this.#edit || line !== '') return;
    this.#keepHeld();
    this.#held = [];
    this.#edited = undefined;
  };

  constructor(observe: UsageObserver, edit?: EventEdit) {
    this.#observe = observe;
    this.#edit = edit;
    // Bytes passed as they came need no line whole: a line too long to hold (no usage event
    // is) is left unread rather than cut, so untouched streams have no event size limit.
    this.#lines = new LineSplitter(undefined, edit === undefined);
  }

  /** The event just read, as edited: its other lines (event:, id:) stay, its data is replaced. */
  #keepHeld(): void {
    const edited = this.#edited;
    if (edited === null) return;
    if (edited === undefined) {
      this.#kept += `${this.#held.join('\n')}\n`;
      return;
    }
    const lines = this.#held.filter((line) => line !== '' && !line.startsWith('data:'));
    this.#kept += `${[...lines, `data: ${edited}`].join('\n')}\n\n`;
  }

  push(chunk: Uint8Array): void {
    this.#lines.push(this.#text.decode(chunk, { stream: true }), this.#onLine);
  }

  end(): void {
    this.#lines.push(this.#text.decode(), this.#onLine);
    this.#lines.end(this.#onLine);
    this.#events.end(this.#onEvent);
    if (this.#edit && this.#held.length > 0) {
      // An unterminated last event: passed as it came unless the edit changed it.
      if (this.#edited === undefined) this.#kept += this.#held.join('\n');
      else this.#keepHeld();
    }
  }

  /** Edit mode: the text of the complete events passed since the last call. */
  takeKept(): string {
    const kept = this.#kept;
    this.#kept = '';
    return kept;
  }
}

/**
 * Taps a native (passthrough) SSE stream for usage, in the one stream stage it adds: each
 * chunk is split into events as it passes (no copy, no side stream) and only the events that
 * carry a usage object are parsed. With `edit`, events are changed or dropped as they pass.
 */
export function createNativeUsageReader(
  observe: UsageObserver,
  options: NativeTapOptions = {},
): NativeUsageReader {
  const edit = editOf(options);
  if (!edit && options.clientModel !== undefined) return createRenamingReader(observe, options.clientModel);
  const scanner = new UsageScanner(observe, edit);
  const encoder = new TextEncoder();
  const editing = edit !== undefined;
  const emitKept = (controller: TransformStreamDefaultController<Uint8Array>) => {
    const kept = scanner.takeKept();
    if (kept !== '') controller.enqueue(encoder.encode(kept));
  };
  return readerOf(
    (settle) => ({
      transform(chunk, controller) {
        scanner.push(chunk);
        if (editing) emitKept(controller);
        else controller.enqueue(chunk);
      },
      flush(controller) {
        scanner.end();
        if (editing) emitKept(controller);
        settle(true);
      },
      cancel: () => settle(false),
    }),
    () => scanner,
  );
}

type SettlingTransformer = Transformer<Uint8Array, Uint8Array> & { cancel: () => void };

/**
 * A stage as a reader: the stage calls `settle` once, true when the stream ended, false when
 * it was cancelled or aborted (`cancel` is in the Streams standard and in Node and workerd,
 * but not yet in TypeScript's DOM types). The usage is read once the stage has settled.
 */
export function readerOf(
  stage: (settle: (completed: boolean) => void) => SettlingTransformer,
  state: () => ReaderState,
): NativeUsageReader {
  let settle: (completed: boolean) => void = () => {};
  const completed = new Promise<boolean>((resolve) => {
    settle = resolve;
  });
  const transformer = stage((done) => settle(done));
  return {
    get transform() {
      return new TransformStream(transformer);
    },
    transformer,
    usage: completed.then(() => state().usage),
    completed,
    failure: completed.then(() => state().failure),
    answerChars: completed.then(() => {
      const { usage, answerChars } = state();
      return usage === null ? answerChars : 0;
    }),
  };
}

/**
 * The usage a stream's text reports: every `data:` line holding a usage object, in order,
 * through the format's observer. Vendors put each event's JSON on one data line; a usage
 * object split over several lines would be missed (never misread).
 */
export function usageInText(text: string, observe: UsageObserver, start: Usage | null = null): Usage | null {
  let usage = start;
  const marker = /"usage"\s*:\s*\{/g;
  for (let found = marker.exec(text); found; found = marker.exec(text)) {
    const start = Math.max(text.lastIndexOf('\n', found.index), text.lastIndexOf('\r', found.index)) + 1;
    const ends = [text.indexOf('\n', found.index), text.indexOf('\r', found.index)].filter((i) => i >= 0);
    const end = ends.length > 0 ? Math.min(...ends) : text.length;
    marker.lastIndex = end;
    const line = text.slice(start, end);
    if (!line.startsWith('data:')) continue;
    const data = line.slice(line.startsWith('data: ') ? 6 : 5);
    try {
      usage = observe({ data }, usage);
    } catch {
      // A malformed event must not cost the usage seen before it.
    }
  }
  return usage;
}

/** Native streams carry `[DONE]` too: data that is not JSON reads as undefined. */
export { tryParseJson as parseJsonData } from '../../util/json';
