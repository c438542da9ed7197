import { describe, expect, it } from 'vitest';
import { nativeStream as messagesStream } from '../../test/wire/anthropic-messages/fixtures/native-stream';
import { awkwardChunks, collect, streamOf } from '../../test/wire/common/test-utils';
import {
  nativeStreamWithoutUsage,
  nativeStreamWithUsage,
} from '../../test/wire/openai-chat/fixtures/native-stream';
import { nativeStream as responsesStream } from '../../test/wire/openai-responses/fixtures/native-stream';
import { wireFormats } from './index';

/** The usage a format's one-stage tap reads from the same bytes (the reference). */
async function viaTap(name: keyof typeof wireFormats, chunks: Uint8Array[]) {
  const reader = wireFormats[name].createNativeUsageReader();
  await collect(streamOf(chunks).pipeThrough(reader.transform));
  return reader.usage;
}

const cases = [
  ['openai-chat', nativeStreamWithUsage],
  ['openai-chat', nativeStreamWithoutUsage],
  ['anthropic-messages', messagesStream],
  ['openai-responses', responsesStream],
] as const;

describe('watchNativeUsage (the copy of a tee)', () => {
  it.each(
    cases,
  )('%s: the same usage as the stream tap, at awkward splits and with CRLF', async (name, text) => {
    for (const body of [text, text.replaceAll('\n', '\r\n')]) {
      const chunks = awkwardChunks(new TextEncoder().encode(body));
      const watched = await wireFormats[name].watchNativeUsage(streamOf(chunks));
      expect(watched.completed).toBe(true);
      expect(watched.usage).toStrictEqual(await viaTap(name, chunks));
    }
  });

  it('a stream that breaks off is not completed and keeps the usage seen before the break', async () => {
    const head = new TextEncoder().encode(
      messagesStream.slice(0, messagesStream.indexOf('event: content_block_delta')),
    );
    let pulls = 0;
    const broken = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulls++ === 0) controller.enqueue(head);
        else controller.error(new Error('upstream went away'));
      },
    });
    const watched = await wireFormats['anthropic-messages'].watchNativeUsage(broken);
    expect(watched.completed).toBe(false);
    expect(watched.usage?.inputTokens).toBeGreaterThan(0);
  });

  it.each(
    cases,
  )('%s, watched chunk by chunk from a byte stream (one read buffer for every chunk)', async (name, text) => {
    const chunks = awkwardChunks(new TextEncoder().encode(text));
    let next = 0;
    // A byte stream, as a fetch body's tee is on workerd: read into the reader's own buffer.
    const bytes = new ReadableStream({
      type: 'bytes',
      pull(controller) {
        const chunk = chunks[next++];
        if (chunk) return controller.enqueue(chunk.slice());
        controller.close();
        // A read waiting with its buffer is answered as done only once told so.
        controller.byobRequest?.respond(0);
      },
    });
    let seen = 0;
    const watched = await wireFormats[name].watchNativeUsage(
      bytes as ReadableStream<Uint8Array>,
      () => seen++,
    );
    expect(seen).toBe(chunks.length);
    expect(watched.completed).toBe(true);
    expect(watched.usage).toStrictEqual(await viaTap(name, chunks));
  });
});
