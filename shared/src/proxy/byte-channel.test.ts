import { describe, expect, it } from 'vitest';
import { type ByteChannel, handOver, throughStage } from './byte-channel';

/** Node has no IdentityTransformStream: a standard identity stream stands in for the runtime's. */
const channel = (): ByteChannel => new TransformStream<Uint8Array, Uint8Array>();
const bytes = (text: string) => new TextEncoder().encode(text);

describe('handing a streamed answer over to the runtime', () => {
  it('passes every chunk in order and ends with the answer', async () => {
    const source = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of ['data: a\n\n', 'data: b\n\n', 'data: [DONE]\n\n'])
          controller.enqueue(bytes(part));
        controller.close();
      },
    });
    expect(await new Response(handOver(source, channel)).text()).toBe(
      'data: a\n\ndata: b\n\ndata: [DONE]\n\n',
    );
  });

  it('cancels the answer when the client leaves', async () => {
    let cancelled: unknown = null;
    const source = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(bytes('data: more\n\n'));
      },
      cancel(reason) {
        cancelled = reason ?? 'cancelled';
      },
    });
    const reader = handOver(source, channel).getReader();
    await reader.read();
    await reader.cancel(new Error('client went away'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(cancelled).not.toBeNull();
  });

  it("breaks the client's stream when the answer breaks", async () => {
    const source = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes('data: a\n\n'));
        controller.error(new Error('upstream reset'));
      },
    });
    await expect(new Response(handOver(source, channel)).text()).rejects.toThrow();
  });

  it('gives the stream itself as the body where the runtime has no channel', () => {
    const source = new ReadableStream<Uint8Array>();
    expect(handOver(source, undefined)).toBe(source);
  });
});

describe('a stage driven straight into the runtime', () => {
  const upper = {
    transform(chunk: Uint8Array, controller: TransformStreamDefaultController<Uint8Array>) {
      controller.enqueue(bytes(new TextDecoder().decode(chunk).toUpperCase()));
    },
  };
  const sourceOf = (parts: string[], end: 'close' | 'error' | 'open' = 'close') =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of parts) controller.enqueue(bytes(part));
        if (end === 'close') controller.close();
        if (end === 'error') controller.error(new Error('upstream reset'));
      },
    });
  const stage = () => new TransformStream(upper);

  it('transforms every chunk in order, as the stage would', async () => {
    const driven = throughStage(sourceOf(['a', 'b']), upper, stage, channel);
    const staged = throughStage(sourceOf(['a', 'b']), upper, stage, undefined);
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
    expect(await new Response(throughStage(source, cutting, stage, channel)).text()).toBe('event: error\n\n');
    expect(pulls).toBeLessThan(4);
  });

  it('cancels the source when the transformer ends the stream while the source is quiet, as a stage would', async () => {
    let cancelled = false;
    let cut: (() => void) | undefined;
    const quiet = new ReadableStream<Uint8Array>({
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
    const body = throughStage(quiet, cutting, stage, channel);
    await new Promise((resolve) => setTimeout(resolve, 5));
    cut?.();
    expect(await new Response(body).text()).toBe('event: error\n\n');
    expect(cancelled).toBe(true);
  });

  it('tells the transformer when the client leaves, or when the upstream breaks', async () => {
    let cancels = 0;
    const counting = { ...upper, cancel: () => void cancels++ };
    const reader = throughStage(sourceOf(['a'], 'open'), counting, stage, channel).getReader();
    await reader.read();
    await reader.cancel(new Error('client went away'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(cancels).toBe(1);
    const broken = throughStage(sourceOf(['a'], 'error'), counting, stage, channel);
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
    throughStage(sourceOf(['a'], 'open'), watching, stage, tight);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen?.desiredSize).toBeLessThanOrEqual(0);
  });
});
