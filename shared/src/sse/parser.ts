import type { SseEvent } from './decoder';

/**
 * The SSE decoder as plain incremental objects, for taps that read a stream inside a stage it
 * already has (no extra stream stage, no copy of each chunk): text → lines → events.
 */

/** Thrown when one line or event of a stream outgrows the limit (see `configureSseLimits`). */
export class StreamEventTooLargeError extends Error {
  constructor(readonly limitChars: number) {
    super(`an event of the upstream's stream exceeds ${limitChars} characters`);
  }
}

/** 16 MiB: far above any real event (a whole image is a few MB), far below a stalled isolate. */
export const DEFAULT_MAX_EVENT_CHARS = 16 * 1024 * 1024;
let maxEventChars = DEFAULT_MAX_EVENT_CHARS;

/**
 * The longest line or event any stream decoder of this isolate holds. Process-wide, as the
 * runtime's own limits are: set once from configuration when the app builds its dependencies.
 */
export function configureSseLimits(limits: { maxEventChars: number }): void {
  maxEventChars = limits.maxEventChars;
}

export function sseLimits(): { maxEventChars: number } {
  return { maxEventChars };
}

/**
 * Text → lines, handling \n, \r\n and \r endings across pushes. Linear in the text: a line that
 * arrives in many pushes is kept as its pieces and joined once, and only new text is scanned.
 */
export class LineSplitter {
  #pieces: string[] = [];
  #pending = 0;
  #skipLeadingLf = false;
  /** Skipping the rest of a line that outgrew the limit (skip mode). */
  #skipping = false;
  readonly #limit: number;
  readonly #skipOversized: boolean;

  /**
   * A line longer than `limit` throws StreamEventTooLargeError; with `skipOversized`, it is
   * left out instead (no line is given for it), for a reader that only looks at the lines and
   * passes the bytes on as they came.
   */
  constructor(limit = maxEventChars, skipOversized = false) {
    this.#limit = limit;
    this.#skipOversized = skipOversized;
  }

  push(text: string, onLine: (line: string) => void): void {
    let start = 0;
    if (this.#skipLeadingLf && text.length > 0) {
      this.#skipLeadingLf = false;
      if (text.charCodeAt(0) === 10) start = 1;
    }
    // Most streams end lines with \n only: then native indexOf finds them.
    const crlf = text.indexOf('\r', start) !== -1;
    for (;;) {
      const end = crlf ? lineEnd(text, start) : text.indexOf('\n', start);
      if (end === -1) break;
      if (this.#skipping) this.#skipping = false;
      else onLine(this.#take(text.slice(start, end)));
      start = end + 1;
      if (crlf && text.charCodeAt(end) === 13) {
        if (end + 1 === text.length) this.#skipLeadingLf = true;
        else if (text.charCodeAt(end + 1) === 10) start = end + 2;
      }
    }
    if (start < text.length && !this.#skipping) this.#hold(start === 0 ? text : text.slice(start));
  }

  end(onLine: (line: string) => void): void {
    if (this.#pieces.length > 0) onLine(this.#take(''));
    this.#skipLeadingLf = false;
    this.#skipping = false;
  }

  /** The held pieces and `tail`, as one line. */
  #take(tail: string): string {
    if (this.#pieces.length === 0) return tail;
    this.#pieces.push(tail);
    const line = this.#pieces.join('');
    this.#pieces = [];
    this.#pending = 0;
    return line;
  }

  #hold(piece: string): void {
    this.#pending += piece.length;
    if (this.#pending > this.#limit) {
      if (!this.#skipOversized) throw new StreamEventTooLargeError(this.#limit);
      this.#pieces = [];
      this.#pending = 0;
      this.#skipping = true;
      return;
    }
    this.#pieces.push(piece);
  }
}

/** The first \r or \n at or after `from`, or -1. */
function lineEnd(text: string, from: number): number {
  const lf = text.indexOf('\n', from);
  const cr = text.indexOf('\r', from);
  if (lf === -1) return cr;
  if (cr === -1) return lf;
  return Math.min(lf, cr);
}

/** Lines → events, per the HTML Living Standard's event-stream interpretation. */
export class EventAssembler {
  #data: string[] = [];
  #size = 0;
  #event: string | undefined;
  #id: string | undefined;
  readonly #limit: number;

  constructor(limit = maxEventChars) {
    this.#limit = limit;
  }

  line(line: string, onEvent: (event: SseEvent) => void): void {
    if (line === '') {
      this.#dispatch(onEvent);
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      this.#size += value.length;
      if (this.#size > this.#limit) throw new StreamEventTooLargeError(this.#limit);
      this.#data.push(value);
    } else if (field === 'event') this.#event = value;
    else if (field === 'id') this.#id = value;
  }

  end(onEvent: (event: SseEvent) => void): void {
    this.#dispatch(onEvent);
  }

  #dispatch(onEvent: (event: SseEvent) => void): void {
    if (this.#data.length > 0) {
      const out: SseEvent = { data: this.#data.join('\n') };
      if (this.#event !== undefined) out.event = this.#event;
      if (this.#id !== undefined) out.id = this.#id;
      onEvent(out);
    }
    this.#data = [];
    this.#size = 0;
    this.#event = undefined;
  }
}
