import { describe, expect, it } from 'vitest';
import {
  expectUsageAtAwkwardSplits,
  expectUsageAtEverySplit,
  tapUsage,
} from '../../../test/wire/common/usage-tap';
import { nativeStream } from '../../../test/wire/openai-responses/fixtures/native-stream';
import toolCallBody from '../../../test/wire/openai-responses/fixtures/response-tool-call.json';
import { createResponsesNativeUsageReader, responsesUsageFromResponse } from './usage';

const tap = (chunks: Uint8Array[]) => tapUsage(createResponsesNativeUsageReader(), chunks);

const expected = { inputTokens: 2048, outputTokens: 301, cachedInputTokens: 1920, reasoningTokens: 256 };

describe('openai-responses usage', () => {
  it('reads usage from a native body', () => {
    expect(responsesUsageFromResponse(toolCallBody)).toStrictEqual({
      inputTokens: 472,
      outputTokens: 89,
      cachedInputTokens: 128,
    });
    expect(responsesUsageFromResponse({ usage: null })).toBeNull();
    expect(responsesUsageFromResponse({ usage: { input_tokens: 1, output_tokens: 2 } })).toStrictEqual({
      inputTokens: 1,
      outputTokens: 2,
    });
  });

  it('reads response.completed usage at awkward splits, bytes identical', async () => {
    await expectUsageAtAwkwardSplits(createResponsesNativeUsageReader, nativeStream, expected);
  });

  it('gives the same usage at every two-piece split of the terminal event', async () => {
    const tail = nativeStream.slice(nativeStream.indexOf('event: response.completed'));
    await expectUsageAtEverySplit(createResponsesNativeUsageReader, tail, (usage) =>
      expect(usage).toStrictEqual(expected),
    );
  });

  it('resolves null when the stream stops before its terminal event', async () => {
    const cut = nativeStream.indexOf('event: response.completed');
    const { usage } = await tap([new TextEncoder().encode(nativeStream.slice(0, cut))]);
    expect(usage).toBeNull();
  });
});
