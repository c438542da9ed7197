import { describe, expect, it } from 'vitest';
import { awkwardChunks, concatBytes } from '../../../test/wire/common/test-utils';
import {
  expectUsageAtAwkwardSplits,
  expectUsageAtEverySplit,
  tapUsage,
} from '../../../test/wire/common/usage-tap';
import {
  nativeStreamWithoutUsage,
  nativeStreamWithUsage,
} from '../../../test/wire/openai-chat/fixtures/native-stream';
import toolCallBody from '../../../test/wire/openai-chat/fixtures/response-tool-call.json';
import { chatUsageFromResponse, createChatNativeUsageReader } from './usage';

const tap = (chunks: Uint8Array[]) => tapUsage(createChatNativeUsageReader(), chunks);

describe('openai-chat usage', () => {
  it('reads usage from a native non-streaming body', () => {
    expect(chatUsageFromResponse(toolCallBody)).toStrictEqual({
      inputTokens: 472,
      outputTokens: 89,
      cachedInputTokens: 128,
    });
    expect(
      chatUsageFromResponse({ usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } }),
    ).toStrictEqual({
      inputTokens: 3,
      outputTokens: 4,
    });
    expect(chatUsageFromResponse({ choices: [] })).toBeNull();
    expect(chatUsageFromResponse('nope')).toBeNull();
    expect(chatUsageFromResponse({ usage: { prompt_tokens: -1, completion_tokens: 4 } })).toBeNull();
  });

  it('reads the final usage chunk at awkward splits and passes the bytes through identical', async () => {
    await expectUsageAtAwkwardSplits(createChatNativeUsageReader, nativeStreamWithUsage, {
      inputTokens: 1117,
      outputTokens: 46,
      cachedInputTokens: 1024,
    });
  });

  it('gives the same usage at every two-piece split of the stream tail', async () => {
    const tail = nativeStreamWithUsage
      .slice(nativeStreamWithUsage.lastIndexOf('data: {'))
      .replaceAll('\n', '\r\n');
    await expectUsageAtEverySplit(createChatNativeUsageReader, tail, (usage) =>
      expect(usage?.outputTokens).toBe(46),
    );
  });

  it('resolves null for a CRLF stream without usage', async () => {
    const bytes = new TextEncoder().encode(nativeStreamWithoutUsage);
    const { out, usage } = await tap(awkwardChunks(bytes));
    expect(concatBytes(out)).toStrictEqual(bytes);
    expect(usage).toBeNull();
  });

  it('resolves with what it saw when the client cancels mid-stream', async () => {
    const reader = createChatNativeUsageReader();
    const bytes = new TextEncoder().encode(nativeStreamWithUsage);
    const source = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes);
      },
    });
    const out = source.pipeThrough(reader.transform).getReader();
    await out.read();
    await out.cancel('client went away');
    expect(await reader.usage).toStrictEqual({
      inputTokens: 1117,
      outputTokens: 46,
      cachedInputTokens: 1024,
    });
  });
});
