import { StreamEventTooLargeError } from '../sse/parser';
import { concatBytes } from '../util/bytes';
import type { WireFormatWithUsageTap } from '../wire/common/wire-format';
import type { IdleGuard } from './idle-guard';
import type { StreamEnding } from './stream-ending';
import type { Attempt } from './types';

const EVENT_BOUNDARY = new TextEncoder().encode('\n\n');

export interface AnswerEnding {
  /** For the stream's last stage (stream-ending.ts). */
  ending: StreamEnding;
  /** Why the answer broke off on the upstream's side, once it has; null while it has not. */
  broken(): string | null;
  /** The client's stream is over (the tail, if any, written), or the guard cut it. Never rejects. */
  over: Promise<void>;
  /**
   * The client went before its stream's end: its side failed, or it had gone when the
   * upstream's body broke off (known once `over` has settled).
   */
  clientLeft(): boolean;
  /** The upstream's body broke off (however: the client's going may be what broke it). */
  sourceBroke(): boolean;
}

/**
 * How a streamed answer ends when it breaks on the upstream's side: the format's error event
 * (the guard's timeout event when the guard aborted it for its silence), after a blank line for
 * a passed-through stream that may have stopped inside an event. No tail, and no failure, when
 * the client is the one that left, or stopped reading (its stream is broken off, idle-guard.ts).
 */
export function answerEnding(
  attempt: Attempt,
  format: WireFormatWithUsageTap,
  guard: IdleGuard,
  options: { clientLeft?: () => boolean },
  guardErrorEvent: () => Uint8Array,
): AnswerEnding {
  let broken: string | null = null;
  let sourceBroke = false;
  /** The client's side failed, or the client had gone when the upstream's body broke off. */
  let left = false;
  let clientOver: () => void = () => {};
  const over = Promise.race([
    new Promise<void>((resolve) => {
      clientOver = resolve;
    }),
    guard.cut,
  ]);
  const clientGone = () => guard.clientStopped() || options.clientLeft?.() === true;
  const ending: StreamEnding = {
    over: (clientLeft) => {
      left ||= clientLeft;
      clientOver();
    },
    tail: (error) => {
      if (clientGone()) return null;
      const event =
        guard.stalled() !== null
          ? guardErrorEvent()
          : format.streamErrorEvent({ type: 'upstream_error', message: brokenMessage(attempt, error) });
      return attempt.mode === 'native' ? concatBytes([EVENT_BOUNDARY, event]) : event;
    },
    broke: (error) => {
      sourceBroke = true;
      if (options.clientLeft?.()) left = true;
      else if (guard.stalled() === null) broken ??= brokenMessage(attempt, error);
    },
  };
  return {
    ending,
    broken: () => broken,
    over,
    clientLeft: () => left,
    sourceBroke: () => sourceBroke,
  };
}

/** What the client and the log are told when the answer broke off on the upstream's side. */
function brokenMessage(attempt: Attempt, error: unknown): string {
  const provider = attempt.route.providerName;
  if (error instanceof StreamEventTooLargeError)
    return `Upstream ${provider}: ${error.message}; the answer is incomplete`;
  const reason = error instanceof Error ? error.message : String(error);
  return `Upstream ${provider} broke off the answer (${reason}); the answer is incomplete`;
}
