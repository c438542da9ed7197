import { describe, expect, it } from 'vitest';
import { nativeStream } from '../../../test/wire/anthropic-messages/fixtures/native-stream';
import toolCallBody from '../../../test/wire/anthropic-messages/fixtures/response-tool-call.json';
import {
  expectUsageAtAwkwardSplits,
  expectUsageAtEverySplit,
  tapUsage,
} from '../../../test/wire/common/usage-tap';
import { createMessagesNativeUsageReader, messagesUsage, messagesUsageFromResponse } from './usage';

const tap = (chunks: Uint8Array[]) => tapUsage(createMessagesNativeUsageReader(), chunks);

const expected = { inputTokens: 2125, outputTokens: 15, cachedInputTokens: 2000, cacheWriteTokens: 100 };

describe('anthropic-messages usage', () => {
  it('reads usage from a native body, counting cache reads and writes as input', () => {
    expect(messagesUsageFromResponse(toolCallBody)).toStrictEqual({
      inputTokens: 472,
      outputTokens: 89,
      cachedInputTokens: 128,
    });
    expect(
      messagesUsageFromResponse({
        usage: { input_tokens: 5, output_tokens: 2, cache_creation_input_tokens: 10 },
      }),
    ).toStrictEqual({ inputTokens: 15, outputTokens: 2, cacheWriteTokens: 10 });
    expect(messagesUsageFromResponse({ type: 'message' })).toBeNull();
    expect(messagesUsageFromResponse(null)).toBeNull();
  });

  it('renders canonical usage back with cache reads and writes outside input_tokens', () => {
    expect(messagesUsage(expected)).toStrictEqual({
      input_tokens: 25,
      output_tokens: 15,
      cache_read_input_tokens: 2000,
      cache_creation_input_tokens: 100,
      cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 0 },
    });
  });

  it('reads one-hour cache writes and thinking tokens, and gives them back (golden)', () => {
    const wire = {
      input_tokens: 10,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 300,
      cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 200 },
      output_tokens: 50,
      output_tokens_details: { thinking_tokens: 30 },
    };
    const usage = messagesUsageFromResponse({ usage: wire });
    expect(usage).toStrictEqual({
      inputTokens: 310,
      outputTokens: 50,
      cachedInputTokens: 0,
      cacheWriteTokens: 300,
      cacheWrite1hTokens: 200,
      reasoningTokens: 30,
    });
    expect(messagesUsage(usage!)).toStrictEqual(wire);
  });

  it('combines message_start and message_delta at awkward splits, bytes identical', async () => {
    await expectUsageAtAwkwardSplits(createMessagesNativeUsageReader, nativeStream, expected);
  });

  it('gives the same usage at every two-piece split of the stream tail', async () => {
    const tail = nativeStream.slice(nativeStream.indexOf('event: message_delta'));
    await expectUsageAtEverySplit(createMessagesNativeUsageReader, tail, (usage) =>
      expect(usage).toStrictEqual({ inputTokens: 0, outputTokens: 15 }),
    );
  });

  it('keeps the larger input count when message_delta repeats it', async () => {
    const stream = `${nativeStream}event: message_delta\ndata: {"type":"message_delta","delta":{},"usage":{"input_tokens":25,"output_tokens":20}}\n\n`;
    const { usage } = await tap([new TextEncoder().encode(stream)]);
    expect(usage).toStrictEqual({ ...expected, outputTokens: 20 });
  });
});
