import { describe, expect, it } from 'vitest';
import {
  awkwardChunks,
  collect,
  concatBytes,
  everySplit,
  streamOf,
} from '../../../test/wire/common/test-utils';
import { nativeStream } from '../../../test/wire/openai-responses/fixtures/native-stream';
import toolCallBody from '../../../test/wire/openai-responses/fixtures/response-tool-call.json';
import { createResponsesNativeUsageReader, responsesUsageFromResponse } from './usage';

async function tap(chunks: Uint8Array[]) {
  const reader = createResponsesNativeUsageReader();
  const out = await collect(streamOf(chunks).pipeThrough(reader.transform));
  return { out, usage: await reader.usage };
}

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
    const bytes = new TextEncoder().encode(nativeStream);
    const chunks = awkwardChunks(bytes);
    const { out, usage } = await tap(chunks);
    expect(out).toStrictEqual(chunks);
    expect(usage).toStrictEqual(expected);
  });

  it('gives the same usage at every two-piece split of the terminal event', async () => {
    const bytes = new TextEncoder().encode(
      nativeStream.slice(nativeStream.indexOf('event: response.completed')),
    );
    for (const split of everySplit(bytes)) {
      const { out, usage } = await tap(split);
      expect(concatBytes(out)).toStrictEqual(bytes);
      expect(usage).toStrictEqual(expected);
    }
  });

  it('resolves null when the stream stops before its terminal event', async () => {
    const cut = nativeStream.indexOf('event: response.completed');
    const { usage } = await tap([new TextEncoder().encode(nativeStream.slice(0, cut))]);
    expect(usage).toBeNull();
  });
});
