import type { SseEvent } from '../../sse/decoder';
import { asRecord, asString, tryParseJson } from '../../util/json';

/**
 * What in a native (passed-through) SSE stream says the answer failed, in any of the three
 * formats: the vendor's own error event (Anthropic's and the Responses API's `event: error`,
 * the Responses API's `response.failed`, a Chat Completions chunk carrying `error`). Anchored
 * regexes, so an ordinary event fails them at its first bytes. Data that is not JSON is not one:
 * it reaches the client as it came, and whether its SDK skips it is the client's affair.
 */
const FAILURE_DATA = /^\{\s*"(?:error"\s*:\s*\{|type"\s*:\s*"(?:error|response\.failed)")/;
const FAILURE_LINE =
  /^(?:event: ?(?:error|response\.failed)[ \t]*\r?$|data: ?\{\s*"(?:error"\s*:\s*\{|type"\s*:\s*"(?:error|response\.failed)"))/m;
const NAMED_FAILURES = new Set(['error', 'response.failed']);

/** The failure one event reports (its message), or null. */
export function failureOfEvent(event: SseEvent): string | null {
  if (!NAMED_FAILURES.has(event.event ?? '') && !FAILURE_DATA.test(event.data)) return null;
  return failureOfData(event.data);
}

/** The failure a native stream's text reports (its message), or null when it reports none. */
export function upstreamFailureIn(text: string): string | null {
  const scanner = new FailureScanner();
  return scanner.scan(text) ?? scanner.end();
}

/**
 * `upstreamFailureIn` over text that comes in whole lines, piece by piece (a renaming reader's):
 * an `event: error` line may come in one piece and its data line in the next.
 */
export class FailureScanner {
  #failure: string | null = null;
  #awaitingData = false;

  /** The failure found so far, this piece included. */
  scan(text: string): string | null {
    if (this.#failure !== null) return this.#failure;
    let from = -1;
    if (this.#awaitingData) {
      from = text.startsWith('data:') ? 0 : text.indexOf('\ndata:') + 1;
      if (from === 0 && !text.startsWith('data:')) return null;
    } else {
      const found = FAILURE_LINE.exec(text);
      if (!found) return null;
      from = found[0].startsWith('event:') ? text.indexOf('\ndata:', found.index) + 1 : found.index;
      if (from === 0) {
        this.#awaitingData = true;
        return null;
      }
    }
    const end = text.indexOf('\n', from);
    const line = (end === -1 ? text.slice(from) : text.slice(from, end)).replace(/\r$/, '');
    this.#failure = failureOfData(line.slice(line.startsWith('data: ') ? 6 : 5));
    return this.#failure;
  }

  /** At the end: an error event whose data never came still names a failure. */
  end(): string | null {
    return this.#failure ?? (this.#awaitingData ? 'the upstream reported an error' : null);
  }
}

function failureOfData(data: string): string {
  const json = asRecord(tryParseJson(data));
  if (!json) return 'the upstream sent an event that is not JSON';
  const error = asRecord(json.error) ?? asRecord(asRecord(json.response)?.error);
  const message = asString(error?.message) ?? asString(json.message);
  return `the upstream reported an error: ${message ?? 'no message'}`;
}
