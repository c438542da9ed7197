/**
 * How an answer that broke on the upstream's side ends for the client: with the format's error
 * event and a clean end, so the client knows the answer is incomplete and its connection stays
 * usable. Not used when the client is the one that left.
 */
export interface StreamEnding {
  /** The last bytes the client gets, or null to break the stream off instead. */
  tail(error: unknown): Uint8Array | null;
  /** Told why the answer broke off (its source failed, or a stage refused what came). */
  broke(error: unknown): void;
  /**
   * The client's stream is over, however it ended; `clientLeft` when the client went before its
   * end (its side was cancelled, or the tail could not be written): whatever broke upstream
   * meanwhile is then the client's going (on workerd its going aborts the upstream call).
   */
  over(clientLeft: boolean): void;
}

/**
 * A stream that ends with `ending`'s tail where it would have failed: for a runtime without a
 * byte channel (Node), and for streams read in JavaScript anyway.
 */
export function endWithTail(
  stream: ReadableStream<Uint8Array>,
  ending: StreamEnding,
): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let next: ReadableStreamReadResult<Uint8Array>;
        try {
          next = await reader.read();
        } catch (error) {
          const tail = ending.tail(error);
          if (tail === null) {
            // The client is gone (it stopped reading, or left): its stream breaks off.
            controller.error(error);
            return ending.over(true);
          }
          ending.broke(error);
          controller.enqueue(tail);
          controller.close();
          return ending.over(false);
        }
        if (!next.done) return controller.enqueue(next.value);
        controller.close();
        ending.over(false);
      },
      cancel: (reason) => {
        ending.over(true);
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * A stream that ends where it would have failed, telling `broke` why: for a decoder, which
 * then reports an answer that ended before its completion in its own terms.
 */
export function closeOnError(
  stream: ReadableStream<Uint8Array>,
  broke: (error: unknown) => void,
): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await reader.read();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        } catch (error) {
          broke(error);
          controller.close();
        }
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

/**
 * The tail, then the end; true when the client got them. A client that has left (its stream
 * errored, or the tail's write failed) is told nothing, and nothing is said to have broken.
 */
export async function endBroken(
  writer: WritableStreamDefaultWriter<Uint8Array>,
  ending: StreamEnding,
  error: unknown,
): Promise<boolean> {
  if (writer.desiredSize === null) return false;
  const tail = ending.tail(error);
  if (tail === null) {
    // The ending knows the client is gone (it stopped reading, or left): its stream breaks off.
    await writer.abort(error).catch(() => undefined);
    return false;
  }
  try {
    await writer.write(tail);
    await writer.close();
  } catch {
    return false;
  }
  // Said only now: a client that was leaving as the upstream's body broke off broke it.
  ending.broke(error);
  return true;
}
