import { type CallDeadline, createCallDeadline } from '../util/call-deadline';
export interface IdleGuardOptions {
  idleMs: number;
  now: () => number;
  /** The last bytes the client gets when the upstream falls silent (the format's error event). */
  errorEvent: () => Uint8Array;
  /** Stops the upstream call. */
  onIdle: (reason: string) => void;
  /**
   * The upstream call's timer (util/call-deadline.ts), armed at the call for the body's first
   * wait: the guard's waits reuse it, so a stream costs no timer of its own (a setTimeout and
   * clearTimeout pair costs a few µs of CPU per request on workerd; docs/performance.md).
   * Absent: one of its own.
   */
  deadline?: CallDeadline;
}

/** `cancel` is in the Streams standard (Node, workerd) but not yet in TypeScript's DOM types. */
export type CancellableTransformer = Transformer<Uint8Array, Uint8Array> & { cancel?: () => void };

/** What the guard uses of a stage's controller; byte-channel.ts drives it without a stage. */
export type StageController = Pick<
  TransformStreamDefaultController<Uint8Array>,
  'enqueue' | 'terminate' | 'error' | 'desiredSize'
>;

export interface IdleGuard {
  /**
   * The last stage's transformer for a stream that passes through JavaScript anyway: ends it
   * with the error event. Given the transformer of the stage before it, it is that stage too
   * (one stage less per stream: a stage's setup is a fair part of a short stream's CPU).
   * byte-channel.ts drives it without a stage; `guardStage` makes it one.
   */
  transformer(inner?: CancellableTransformer): CancellableTransformer;
  /** Once the stream has ended, however it ended. */
  stop(): void;
  /** When the first chunk came (the guard's clock), null before it did: time to first chunk. */
  firstChunkAt(): number | null;
  /** Why the stream was cut because the upstream fell silent (null while it was not). */
  stalled(): string | null;
  /** The stream was cut because the client had stopped reading (see createIdleGuard). */
  clientStopped(): boolean;
  /** Settles when the guard cuts the stream, for either reason (never, if it does not). */
  cut: Promise<void>;
}

/**
 * The guard's transformer as a stream stage, where the runtime has no byte channel. Room for
 * one chunk on the client's side: a chunk still waiting there at the deadline is the sign that
 * the client stopped reading (a reading client takes each at once).
 */
export function guardStage(transformer: CancellableTransformer): TransformStream<Uint8Array, Uint8Array> {
  return new TransformStream(transformer, undefined, { highWaterMark: 1 });
}

/**
 * Cuts a stream whose upstream has sent nothing for `idleMs`: the upstream call is aborted
 * (so a silent upstream does not hold a socket for ever) and, through its transformer, the client
 * gets the format's error event and a closed stream. One timer per stream (the call's, when
 * given), re-armed from the time of the last chunk rather than reset on every chunk: a busy
 * stream costs one clock read per chunk.
 *
 * The same silence has a second cause: a client that stopped reading, so the stages stopped
 * pulling from the upstream. A chunk still waiting in the stage's one-chunk queue at the
 * deadline tells them apart. workerd now and then never reports a client that disconnected
 * mid-stream (no request.signal abort, no stream cancel: cloudflare/workerd#6832 and kin);
 * this is what then ends the exchange — the upstream aborted, logged as the client's leaving —
 * instead of a stream held open for ever.
 */
export function createIdleGuard(options: IdleGuardOptions): IdleGuard {
  let last = options.now();
  let stalled: string | null = null;
  let clientStopped = false;
  let controller: StageController | undefined;
  let markCut: () => void = () => {};
  // A cut ends the stage without a flush or a cancel of its own: the inner transformer hears it here.
  let innerCancel: (() => void) | undefined;
  const cutDone = new Promise<void>((resolve) => {
    markCut = resolve;
  });
  const deadline = options.deadline ?? createCallDeadline();
  const check = () => {
    const quiet = options.now() - last;
    if (quiet < options.idleMs) {
      deadline.set(options.idleMs - quiet, check);
      return;
    }
    if (controller?.desiredSize != null && controller.desiredSize <= 0) {
      clientStopped = true;
      cut(() => controller?.error(new Error('the client stopped reading')));
      end(`the client read nothing for ${options.idleMs} ms`);
      return;
    }
    stalled = `upstream sent nothing for ${options.idleMs} ms`;
    cut(() => {
      controller?.enqueue(options.errorEvent());
      controller?.terminate();
    });
    end('upstream idle timeout');
  };
  /** After either cut: the upstream stopped, the inner stage told, `cut` settled. */
  const end = (reason: string) => {
    options.onIdle(reason);
    innerCancel?.();
    markCut();
  };
  deadline.set(options.idleMs, check);
  let firstAt: number | null = null;
  const touch = () => {
    last = options.now();
    firstAt ??= last;
  };
  const stop = () => deadline.stop();
  const transformer = (inner?: CancellableTransformer): CancellableTransformer => {
    innerCancel = () => inner?.cancel?.();
    return {
      start(c) {
        controller = c;
      },
      transform(chunk, c) {
        touch();
        return inner?.transform ? inner.transform(chunk, c) : c.enqueue(chunk);
      },
      flush(c) {
        stop();
        return inner?.flush?.(c);
      },
      cancel() {
        stop();
        inner?.cancel?.();
      },
    };
  };
  return {
    transformer,
    stop,
    firstChunkAt: () => firstAt,
    stalled: () => stalled,
    clientStopped: () => clientStopped,
    cut: cutDone,
  };
}

function cut(end: () => void): void {
  try {
    end();
  } catch {
    // The client's side is already gone: nothing to tell it.
  }
}

/**
 * A whole (non-streamed) upstream body, given at most `idleMs` after the headers: then the
 * upstream call is aborted and null returned. `deadline` is the call's own timer when it has
 * one (fetchUpstream's), so the body costs no timer of its own; it is stopped either way.
 */
export async function readUpstreamTextInTime(
  response: Response,
  idleMs: number,
  abort: (reason: string) => void,
  deadline: CallDeadline = createCallDeadline(),
): Promise<string | null> {
  const silent = new Promise<null>((resolve) => deadline.set(idleMs, () => resolve(null)));
  try {
    const text = await Promise.race([response.text(), silent]);
    if (text === null) abort(`upstream body not complete within ${idleMs} ms`);
    return text;
  } finally {
    deadline.stop();
  }
}
