import { StreamEventTooLargeError, sseLimits } from '../../sse/parser';
import { answerCharsIn } from './answer-chars';
import type { NativeUsageReader, ReaderState, UsageObserver } from './native-usage-reader';
import { readerOf, usageInText } from './native-usage-reader';
import { MODEL_FIELD } from './rename-model';
import { FailureScanner } from './stream-failure';

/**
 * A passthrough stream under an alias: the upstream names its own model in the events
 * (every chat chunk, message_start, the Response's lifecycle events) and the client must see
 * the name it sent. No event parsing: the text goes out in whole lines (a model field never
 * spans one), the first model field learnt is replaced wherever it recurs (a string replace, as
 * cheap as a stage gets), and the usage is read from the same lines as they pass.
 */
export function createRenamingReader(observe: UsageObserver, clientModel: string): NativeUsageReader {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  const to = `"model":${JSON.stringify(clientModel)}`;
  let from: string | null = null;
  // The text after the last line end, in pieces: a huge event is joined once, not per chunk.
  let pending: string[] = [];
  let pendingChars = 0;
  const { maxEventChars } = sseLimits();
  const state: ReaderState = { usage: null, failure: null, answerChars: 0 };
  const failures = new FailureScanner();
  const renamed = (lines: string): string => {
    if (from === null) {
      const found = MODEL_FIELD.exec(lines)?.[0];
      // Already the client's name: nothing learnt, so later lines are still searched.
      if (found === undefined || found === to) return lines;
      from = found;
    }
    return lines.replaceAll(from, to);
  };
  const pass = (lines: string, controller: TransformStreamDefaultController<Uint8Array>) => {
    if (lines === '') return;
    // Counted until usage comes: a stream that breaks off (or reports none) is estimated on it.
    if (state.usage === null) state.answerChars += answerCharsIn(lines);
    state.usage = usageInText(lines, observe, state.usage);
    state.failure = failures.scan(lines);
    controller.enqueue(encoder.encode(renamed(lines)));
  };
  return readerOf(
    (settle) => ({
      transform(chunk, controller) {
        const text = decoder.decode(chunk, { stream: true });
        const cut = text.lastIndexOf('\n') + 1;
        if (cut === 0) {
          pendingChars += text.length;
          if (pendingChars > maxEventChars) throw new StreamEventTooLargeError(maxEventChars);
          pending.push(text);
          return;
        }
        pending.push(text.slice(0, cut));
        pass(pending.join(''), controller);
        pending = [text.slice(cut)];
        pendingChars = text.length - cut;
      },
      flush(controller) {
        pending.push(decoder.decode());
        pass(pending.join(''), controller);
        pending = [];
        state.failure = failures.end();
        settle(true);
      },
      cancel: () => settle(false),
    }),
    () => state,
  );
}
