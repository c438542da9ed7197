import type { Usage } from '../../canonical/types';
import { answerCharsIn } from './answer-chars';
import { type NativeStreamOutcome, type UsageObserver, usageInText } from './native-usage-reader';
import { FailureScanner, upstreamFailureIn } from './stream-failure';

/**
 * Reads a copy of a native SSE stream (one branch of a tee) for usage, while the other branch
 * goes to the client without passing through JavaScript: no stream stage of its own. Never
 * rejects.
 *
 * Without `onChunk` (nothing watches the stream's silences) and without `partial`, the runtime
 * reads the copy whole (cheapest: no JavaScript per chunk) and the text is searched once at the
 * end. Otherwise each chunk is scanned as it comes, by whole lines, and dropped: a stream held
 * open for minutes keeps no more than its unfinished line (kept chunks cost more than their
 * bytes: on workerd each can hold the whole buffer it was read into). `partial`: the format
 * reports usage before its end (Anthropic's message_start carries the input tokens), so a
 * stream that breaks off still has usage to log; `onChunk` hears of every chunk (an idle
 * timeout).
 */
export async function watchNativeUsage(
  copy: ReadableStream<Uint8Array>,
  observe: UsageObserver,
  partial: boolean,
  onChunk?: () => void,
): Promise<NativeStreamOutcome> {
  if (!partial && !onChunk) {
    try {
      return outcomeOf(await new Response(copy).text(), observe, true);
    } catch {
      return { usage: null, completed: false, failure: null, answerChars: 0 };
    }
  }
  const scanner = new LineUsageScanner(observe);
  const decoder = new TextDecoder();
  let completed = true;
  try {
    await eachChunk(copy, (chunk) => {
      scanner.push(decoder.decode(chunk, { stream: true }));
      onChunk?.();
    });
  } catch {
    completed = false;
  }
  scanner.push(decoder.decode());
  return { ...scanner.end(), completed };
}

/** Room for one read of a byte stream: a vendor's chunk is a few hundred bytes to a few KiB. */
const READ_BYTES = 16_384;

/**
 * Hands each chunk of `stream` to `use`, which must be done with it before it returns. A byte
 * stream (the runtime's own, as a fetch body's tee is on workerd) is read into one buffer of the
 * reader's, used again for every read: a default read allocates a buffer per chunk, garbage that
 * thousands of open streams turn into most of the runtime's CPU.
 */
async function eachChunk(
  stream: ReadableStream<Uint8Array>,
  use: (chunk: Uint8Array) => void,
): Promise<void> {
  let byob: ReadableStreamBYOBReader | null = null;
  try {
    byob = stream.getReader({ mode: 'byob' });
  } catch {
    // Not a byte stream: read it as it comes.
  }
  if (!byob) {
    const reader = stream.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) use(read.value);
    return;
  }
  let buffer = new Uint8Array(READ_BYTES);
  for (;;) {
    const { done, value } = await byob.read(buffer);
    if (done || !value) return;
    use(value);
    // The read took the buffer over and gives it back as the chunk's own.
    buffer = new Uint8Array(value.buffer, 0, READ_BYTES);
  }
}

/**
 * Usage, failure and answer length of SSE text that comes piece by piece, read by whole lines
 * (a usage object or an error event never spans lines) as they complete; only the unfinished
 * line is kept.
 */
export class LineUsageScanner {
  readonly #observe: UsageObserver;
  readonly #failures = new FailureScanner();
  #usage: Usage | null = null;
  #answerChars = 0;
  #pending = '';

  constructor(observe: UsageObserver) {
    this.#observe = observe;
  }

  push(text: string): void {
    const cut = text.lastIndexOf('\n') + 1;
    if (cut === 0) {
      this.#pending += text;
      return;
    }
    this.#scan(this.#pending + text.slice(0, cut));
    this.#pending = text.slice(cut);
  }

  end(): Omit<NativeStreamOutcome, 'completed'> {
    this.#scan(this.#pending);
    this.#pending = '';
    const usage = this.#usage;
    return { usage, failure: this.#failures.end(), answerChars: usage === null ? this.#answerChars : 0 };
  }

  #scan(lines: string): void {
    if (lines === '') return;
    // Counted until usage comes: a stream that breaks off (or reports none) is estimated on it.
    if (this.#usage === null) this.#answerChars += answerCharsIn(lines);
    this.#usage = usageInText(lines, this.#observe, this.#usage);
    this.#failures.scan(lines);
  }
}

function outcomeOf(text: string, observe: UsageObserver, completed: boolean): NativeStreamOutcome {
  const usage = usageInText(text, observe);
  const answerChars = usage === null ? answerCharsIn(text) : 0;
  return { usage, completed, failure: upstreamFailureIn(text), answerChars };
}
