import type { ByteChannel } from './byte-channel';

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
  /** The client's stream is over, however it ended (whole, broken off, or left by the client). */
  over(): void;
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
          if (tail === null) controller.error(error);
          else {
            ending.broke(error);
            controller.enqueue(tail);
            controller.close();
          }
          return ending.over();
        }
        if (!next.done) return controller.enqueue(next.value);
        controller.close();
        ending.over();
      },
      cancel: (reason) => {
        ending.over();
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
 * The upstream's own bytes to the client, untouched, through the runtime's byte channel: the
 * runtime pumps them (no JavaScript per chunk) and, if the upstream breaks off, the channel is
 * still open for the tail. Without a channel, `endWithTail`.
 */
export function passThrough(
  source: ReadableStream<Uint8Array>,
  open: (() => ByteChannel) | undefined,
  ending: StreamEnding,
): ReadableStream<Uint8Array> {
  if (!open) return endWithTail(source, ending);
  const channel = open();
  void source
    .pipeTo(channel.writable, { preventAbort: true })
    .catch((error: unknown) => endBroken(channel.writable.getWriter(), ending, error))
    .finally(() => ending.over());
  return channel.readable;
}

/** The tail, then the end. A client that has left (its stream errored) is told nothing. */
export async function endBroken(
  writer: WritableStreamDefaultWriter<Uint8Array>,
  ending: StreamEnding,
  error: unknown,
): Promise<void> {
  if (writer.desiredSize === null) return;
  const tail = ending.tail(error);
  if (tail === null) return void (await writer.abort(error).catch(() => undefined));
  ending.broke(error);
  try {
    await writer.write(tail);
    await writer.close();
  } catch {
    // The client left meanwhile: nothing more to tell it.
  }
}
