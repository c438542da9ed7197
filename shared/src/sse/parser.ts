import type { SseEvent } from './decoder';

/**
 * The SSE decoder as plain incremental objects, for taps that read a stream inside a stage it
 * already has (no extra stream stage, no copy of each chunk): text → lines → events.
 */

/** Text → lines, handling \n, \r\n and \r endings across pushes. */
export class LineSplitter {
  #buffer = '';
  #skipLeadingLf = false;

  push(text: string, onLine: (line: string) => void): void {
    const buffer = this.#buffer + text;
    // Most streams end lines with \n only: then native indexOf finds them.
    if (!this.#skipLeadingLf && buffer.indexOf('\r') === -1) {
      let start = 0;
      for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n', start)) {
        onLine(buffer.slice(start, end));
        start = end + 1;
      }
      this.#buffer = buffer.slice(start);
      return;
    }
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const ch = buffer.charCodeAt(i);
      if (this.#skipLeadingLf && i === start && ch === 10) {
        start = i + 1;
        this.#skipLeadingLf = false;
        continue;
      }
      this.#skipLeadingLf = false;
      if (ch !== 10 && ch !== 13) continue;
      onLine(buffer.slice(start, i));
      if (ch === 13) {
        if (i + 1 < buffer.length) {
          if (buffer.charCodeAt(i + 1) === 10) i++;
        } else {
          this.#skipLeadingLf = true;
        }
      }
      start = i + 1;
    }
    this.#buffer = buffer.slice(start);
  }

  end(onLine: (line: string) => void): void {
    if (this.#buffer.length > 0) onLine(this.#buffer);
    this.#buffer = '';
  }
}

/** Lines → events, per the HTML Living Standard's event-stream interpretation. */
export class EventAssembler {
  #data: string[] = [];
  #event: string | undefined;
  #id: string | undefined;

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
    if (field === 'data') this.#data.push(value);
    else if (field === 'event') this.#event = value;
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
    this.#event = undefined;
  }
}
