export interface IdleGuardOptions {
  idleMs: number;
  now: () => number;
  /** The last bytes the client gets when the upstream falls silent (the format's error event). */
  errorEvent: () => Uint8Array;
  /** Stops the upstream call. */
  onIdle: () => void;
}

export interface IdleGuard {
  /** A last stage for a stream that passes through JavaScript anyway: ends it with the error event. */
  stage(): TransformStream<Uint8Array, Uint8Array>;
  /** For a stream read elsewhere: call on every chunk. */
  touch(): void;
  /** Once the stream has ended, however it ended. */
  stop(): void;
  /** Why the stream was cut (null while it was not). */
  stalled(): string | null;
}

/**
 * Cuts a stream whose upstream has sent nothing for `idleMs`: the upstream call is aborted
 * (so a silent upstream does not hold a socket for ever) and, through `stage()`, the client
 * gets the format's error event and a closed stream. One timer per stream, re-armed from the
 * time of the last chunk rather than reset on every chunk: a busy stream costs one clock read
 * per chunk.
 */
export function createIdleGuard(options: IdleGuardOptions): IdleGuard {
  let last = options.now();
  let stalled: string | null = null;
  let controller: TransformStreamDefaultController<Uint8Array> | undefined;
  const check = () => {
    const quiet = options.now() - last;
    if (quiet < options.idleMs) {
      timer = setTimeout(check, options.idleMs - quiet);
      return;
    }
    stalled = `upstream sent nothing for ${options.idleMs} ms`;
    try {
      controller?.enqueue(options.errorEvent());
      controller?.terminate();
    } catch {
      // The client's side is already gone: nothing to tell it.
    }
    options.onIdle();
  };
  let timer: ReturnType<typeof setTimeout> | undefined = setTimeout(check, options.idleMs);
  const touch = () => {
    last = options.now();
  };
  const stop = () => clearTimeout(timer);
  const stage = () => {
    const transformer: Transformer<Uint8Array, Uint8Array> & { cancel: () => void } = {
      start(c) {
        controller = c;
      },
      transform(chunk, c) {
        touch();
        c.enqueue(chunk);
      },
      flush: stop,
      // In the Streams standard (Node, workerd), not yet in TypeScript's DOM types.
      cancel: stop,
    };
    return new TransformStream(transformer);
  };
  return { stage, touch, stop, stalled: () => stalled };
}

/**
 * A whole (non-streamed) upstream body, given at most `idleMs` after the headers: then the
 * upstream call is aborted and null returned.
 */
export async function readBodyWithin(
  response: Response,
  idleMs: number,
  abort: (reason: string) => void,
): Promise<string | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const silent = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), idleMs);
  });
  try {
    const text = await Promise.race([response.text(), silent]);
    if (text === null) abort(`upstream body not complete within ${idleMs} ms`);
    return text;
  } finally {
    clearTimeout(timer);
  }
}
