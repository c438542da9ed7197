import type { NativeUsageReader, UsageObserver } from './native-usage-reader';
import { readerOf, usageInText } from './native-usage-reader';
import { MODEL_FIELD } from './rename-model';

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
  let pending = '';
  let usage: Parameters<UsageObserver>[1] = null;
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
    usage = usageInText(lines, observe, usage);
    controller.enqueue(encoder.encode(renamed(lines)));
  };
  return readerOf(
    (settle) => ({
      transform(chunk, controller) {
        const text = pending + decoder.decode(chunk, { stream: true });
        const cut = text.lastIndexOf('\n') + 1;
        pending = text.slice(cut);
        pass(text.slice(0, cut), controller);
      },
      flush(controller) {
        pass(pending + decoder.decode(), controller);
        pending = '';
        settle(true);
      },
      cancel: () => settle(false),
    }),
    () => usage,
  );
}
