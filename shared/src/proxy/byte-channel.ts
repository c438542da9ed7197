import { type ChunkReader, chunkReader } from './chunk-reader';
import { endBroken, endWithTail, type StreamEnding } from './stream-ending';

/**
 * A runtime's own byte stream: what is written to `writable` is read from `readable` without
 * JavaScript in between (workerd's IdentityTransformStream).
 */
export interface ByteChannel {
  readable: ReadableStream<Uint8Array>;
  writable: WritableStream<Uint8Array>;
}

/**
 * A stage's controller over the channel's writer: a write still pending is a full queue. A
 * writer's writes settle in order and a failed one fails every one after it, so the last write
 * of a batch tells how all of them went: one promise a chunk, the writer's own.
 */
class ChannelController {
  closed = false;
  /** Writes not yet known to be taken. */
  private writing = 0;
  /** Of those, the ones enqueued since the last drain began, and the last of them. */
  private batch = 0;
  private last: Promise<void> | undefined;

  constructor(
    private readonly writer: WritableStreamDefaultWriter<Uint8Array>,
    private readonly reader: ChunkReader,
  ) {}

  get desiredSize(): number {
    return this.closed ? 0 : 1 - this.writing;
  }

  enqueue(chunk: Uint8Array): void {
    if (this.closed) return;
    // An earlier write of the batch fails only with the last one, which is waited for.
    if (this.last !== undefined) void this.last.catch(ignore);
    this.writing++;
    this.batch++;
    this.last = this.writer.write(chunk);
  }

  /** The client has everything enqueued so far (rejects when it left). */
  async drained(): Promise<void> {
    const last = this.last;
    if (last === undefined) return;
    const count = this.batch;
    this.last = undefined;
    this.batch = 0;
    try {
      await last;
    } finally {
      this.writing -= count;
    }
  }

  /** As a stage's own: the client gets what was enqueued and the end, the source is cancelled. */
  terminate(): void {
    if (this.closed) return;
    this.closed = true;
    this.cancelSource(new TypeError('the stage ended the stream'));
    void this.drained()
      .then(() => this.writer.close())
      .catch(() => undefined);
  }

  /** As a stage's own: the client's stream breaks, the source is cancelled. */
  error(reason: unknown): void {
    if (this.closed) return;
    this.closed = true;
    this.cancelSource(reason);
    void this.writer.abort(reason).catch(() => undefined);
  }

  /** The stages before are told (a stream of canonical events settles its taps as cancelled). */
  private cancelSource(reason: unknown): void {
    void this.reader.cancel(reason).catch(ignore);
  }
}

function ignore(): void {}

/**
 * `source` through one stage's transformer to the client, without a stream stage: the
 * transformer is driven here and writes straight into the runtime's byte stream, which workerd
 * sends to the client far more cheaply than a stream it must pull from JavaScript (a
 * TransformStream of its own would cost most of what the channel saves). Writes follow the
 * client's pace (one at a time, each awaited); a client that leaves fails the write and cancels
 * the answer's stages, and a broken answer ends with the ending's tail. With no channel (Node),
 * the stage as the standard streams run it (`stage` builds it from the same transformer).
 */
export function throughStage(
  source: ReadableStream<Uint8Array>,
  transformer: Transformer<Uint8Array, Uint8Array> & { cancel?: () => void },
  stage: () => TransformStream<Uint8Array, Uint8Array>,
  open: (() => ByteChannel) | undefined,
  ending: StreamEnding,
): ReadableStream<Uint8Array> {
  if (!open) return endWithTail(source.pipeThrough(stage()), ending);
  const channel = open();
  void drive(source, transformer, channel.writable, ending).then(
    (clientLeft) => ending.over(clientLeft),
    () => ending.over(false),
  );
  return channel.readable;
}

async function drive(
  source: ReadableStream<Uint8Array>,
  transformer: Transformer<Uint8Array, Uint8Array> & { cancel?: () => void },
  writable: WritableStream<Uint8Array>,
  ending: StreamEnding,
): Promise<boolean> {
  /** Whether the client went before the end (its write failed, its side was cancelled). */
  let clientLeft = false;
  const reader = chunkReader(source);
  const writer = writable.getWriter();
  const controller = new ChannelController(writer, reader);
  // The transformer takes the stand-in for the controller of the stage it would have been.
  const stage = controller as unknown as TransformStreamDefaultController<Uint8Array>;
  const stop = (error: unknown) => {
    clientLeft = true;
    controller.closed = true;
    transformer.cancel?.();
    return Promise.allSettled([reader.cancel(error), writer.abort(error)]);
  };
  // A client that leaves while the upstream is quiet is heard at once, not at the next write.
  writer.closed.catch((error: unknown) => {
    if (!controller.closed) void stop(error);
  });
  // The answer's side failed (the source's read, or the stage on what came): the tail, the end.
  const broken = async (error: unknown) => {
    if (controller.closed) return;
    controller.closed = true;
    transformer.cancel?.();
    void reader.cancel(error).catch(ignore);
    if (!(await endBroken(writer, ending, error))) clientLeft = true;
  };
  // Which side a throw comes from: the answer's (the source's read, the stage's work on what
  // came) or the client's (a write it did not take). Tracked in a variable rather than one
  // try per step: a stream's chunks then cost no promise of their own for it.
  let answerSide = true;
  try {
    await transformer.start?.(stage);
    for (;;) {
      answerSide = true;
      const { done, value } = await reader.read();
      // The transformer ended the stream while the source was quiet (the idle guard's cut).
      if (controller.closed) return clientLeft;
      if (done) break;
      await transformer.transform?.(value, stage);
      answerSide = false;
      await controller.drained();
      if (controller.closed) return clientLeft;
    }
    answerSide = true;
    await transformer.flush?.(stage);
    answerSide = false;
    await controller.drained();
    if (!controller.closed) {
      controller.closed = true;
      await writer.close();
    }
  } catch (error) {
    // The transformer ended the stream itself (the idle guard's cut): the rest is its doing.
    if (controller.closed) return clientLeft;
    if (answerSide) await broken(error);
    // The client left (a write failed): both sides told.
    else await stop(error);
  }
  return clientLeft;
}
