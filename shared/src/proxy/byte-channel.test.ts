import { describe, expect, it, vi } from 'vitest';
import { type ByteChannel, throughStage } from './byte-channel';
import { closeOnError, type StreamEnding } from './stream-ending';

/** Node has no IdentityTransformStream: a standard identity stream stands in for the runtime's. */
const channel = (): ByteChannel => new TransformStream<Uint8Array, Uint8Array>();
const bytes = (text: string) => new TextEncoder().encode(text);
/** Until `check` holds: what a stream does on cancel or close settles a few turns later. */
const soon = (check: () => void) => vi.waitFor(check, { interval: 2 });

/** No tail: a broken answer breaks the client's stream off (as a stage of the runtime's would). */
const breakOff: StreamEnding = { tail: () => null, broke: () => {}, over: () => {} };

/** The format's error event as the tail, and what broke, as respond.ts ends a broken answer. */
function tailing() {
  const broke: string[] = [];
  /** Each over(clientLeft) call. */
  const overs: boolean[] = [];
  const ending: StreamEnding = {
    tail: (error) => bytes(`event: error\ndata: ${String(error)}\n\n`),
    broke: (error) => void broke.push(String(error)),
    over: (clientLeft) => void overs.push(clientLeft),
  };
  return { ending, broke, overs };
}

describe('a stage driven straight into the runtime', () => {
  const upper = {
    transform(chunk: Uint8Array, controller: TransformStreamDefaultController<Uint8Array>) {
      controller.enqueue(bytes(new TextDecoder().decode(chunk).toUpperCase()));
    },
  };
  // Chunk by chunk, as a connection delivers them: an error in start() would drop the queue.
  const sourceOf = (parts: string[], end: 'close' | 'error' | 'open' = 'close') => {
    const left = [...parts];
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        const part = left.shift();
        if (part !== undefined) return controller.enqueue(bytes(part));
        if (end === 'close') controller.close();
        if (end === 'error') controller.error(new Error('upstream reset'));
        if (end === 'open') return new Promise(() => {});
      },
    });
  };
  const stage = () => new TransformStream(upper);

  it('transforms every chunk in order, as the stage would', async () => {
    const driven = throughStage(sourceOf(['a', 'b']), upper, stage, channel, breakOff);
    const staged = throughStage(sourceOf(['a', 'b']), upper, stage, undefined, breakOff);
    expect(await new Response(driven).text()).toBe('AB');
    expect(await new Response(staged).text()).toBe('AB');
  });

  it('ends with what the transformer enqueued before terminating, and stops reading', async () => {
    let pulls = 0;
    const source = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls++;
        controller.enqueue(bytes('x'));
      },
    });
    const cutting = {
      transform(_chunk: Uint8Array, controller: TransformStreamDefaultController<Uint8Array>) {
        controller.enqueue(bytes('event: error\n\n'));
        controller.terminate();
      },
    };
    expect(await new Response(throughStage(source, cutting, stage, channel, breakOff)).text()).toBe(
      'event: error\n\n',
    );
    expect(pulls).toBeLessThan(4);
  });

  it('cancels the source when the transformer ends the stream while the source is quiet, as a stage would', async () => {
    let cancelled = false;
    let waiting = false;
    let cut: (() => void) | undefined;
    const quiet = new ReadableStream<Uint8Array>({
      pull() {
        waiting = true;
        return new Promise(() => {});
      },
      cancel() {
        cancelled = true;
      },
    });
    const cutting = {
      start(controller: TransformStreamDefaultController<Uint8Array>) {
        cut = () => {
          controller.enqueue(bytes('event: error\n\n'));
          controller.terminate();
        };
      },
    };
    const body = throughStage(quiet, cutting, stage, channel, breakOff);
    // Cut once the stage waits on the source for its next chunk.
    await soon(() => expect(waiting).toBe(true));
    cut?.();
    expect(await new Response(body).text()).toBe('event: error\n\n');
    expect(cancelled).toBe(true);
  });

  it('tells the transformer when the client leaves, or when the upstream breaks', async () => {
    let cancels = 0;
    const counting = { ...upper, cancel: () => void cancels++ };
    const reader = throughStage(sourceOf(['a'], 'open'), counting, stage, channel, breakOff).getReader();
    await reader.read();
    await reader.cancel(new Error('client went away'));
    await soon(() => expect(cancels).toBe(1));
    const broken = throughStage(sourceOf(['a'], 'error'), counting, stage, channel, breakOff);
    await expect(new Response(broken).text()).rejects.toThrow();
    expect(cancels).toBe(2);
  });

  it('shows a write the client has not taken as a full queue (how the idle guard tells it stopped)', async () => {
    let seen: TransformStreamDefaultController<Uint8Array> | undefined;
    const watching = {
      start(controller: TransformStreamDefaultController<Uint8Array>) {
        seen = controller;
      },
      ...upper,
    };
    // A channel that takes nothing until read: no one reads it here.
    const tight = (): ByteChannel =>
      new TransformStream(undefined, { highWaterMark: 0 }, { highWaterMark: 0 });
    throughStage(sourceOf(['a'], 'open'), watching, stage, tight, breakOff);
    await soon(() => expect(seen?.desiredSize).toBeLessThanOrEqual(0));
  });

  for (const [name, open] of [
    ['into the byte channel', channel],
    ['without one (Node)', undefined],
  ] as const) {
    it(`${name}: an upstream that breaks off ends with the tail, cleanly, and says why`, async () => {
      const { ending, broke } = tailing();
      const body = throughStage(sourceOf(['a'], 'error'), upper, stage, open, ending);
      expect(await new Response(body).text()).toBe('Aevent: error\ndata: Error: upstream reset\n\n');
      expect(broke).toEqual(['Error: upstream reset']);
    });

    it(`${name}: a stage that refuses what came ends with the tail too`, async () => {
      const { ending, broke } = tailing();
      const refusing = {
        transform(chunk: Uint8Array, controller: TransformStreamDefaultController<Uint8Array>) {
          if (new TextDecoder().decode(chunk) === 'huge') throw new Error('event too large');
          controller.enqueue(chunk);
        },
      };
      const staged = () => new TransformStream(refusing);
      const body = throughStage(sourceOf(['ok ', 'huge', 'never'], 'open'), refusing, staged, open, ending);
      expect(await new Response(body).text()).toBe('ok event: error\ndata: Error: event too large\n\n');
      expect(broke).toEqual(['Error: event too large']);
    });
  }

  it('a client that leaves is not a broken answer: no tail, nothing said to have broken', async () => {
    const { ending, broke, overs } = tailing();
    const passing: Transformer<Uint8Array, Uint8Array> = { transform: (chunk, c) => c.enqueue(chunk) };
    const stage = () => new TransformStream(passing);
    const reader = throughStage(sourceOf(['a'], 'open'), passing, stage, channel, ending).getReader();
    await reader.read();
    await reader.cancel(new Error('client went away'));
    // Once the ending has run (the client left), nothing was said to have broken.
    await soon(() => expect(overs).toEqual([true]));
    expect(broke).toEqual([]);
  });
});

describe('closeOnError', () => {
  it('ends a broken stream where it broke, for the decoder to report, and says why', async () => {
    const reasons: unknown[] = [];
    let pulls = 0;
    const source = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulls++ === 0) controller.enqueue(bytes('data: 1\n\n'));
        else controller.error(new Error('connection reset'));
      },
    });
    expect(await new Response(closeOnError(source, (e) => reasons.push(e))).text()).toBe('data: 1\n\n');
    expect(String(reasons[0])).toBe('Error: connection reset');
  });
});
