import { APIError } from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import {
  failingEvents,
  textAndToolCallEvents,
  toolCallArguments,
  usageFirstEvents,
} from '../../../test/wire/common/fixtures/canonical';
import { openAiClient } from '../../../test/wire/common/fixtures/sdk-clients';
import { decodeChunks, encodeEvents, everySplit, utf8 } from '../../../test/wire/common/test-utils';
import type { StreamEvent } from '../../canonical/types';
import { type ChatStreamOptions, createChatStreamEncoder } from './stream-encoder';

const encode = (events: readonly StreamEvent[], options?: ChatStreamOptions) =>
  encodeEvents(createChatStreamEncoder('my-alias', options), events);

async function sdkChunks(bytes: Uint8Array): Promise<ChatCompletionChunk[]> {
  const stream = await openAiClient(bytes).chat.completions.create({
    model: 'my-alias',
    messages: [],
    stream: true,
  });
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe('openai-chat stream encoder', () => {
  it("accumulates in the SDK's ChatCompletionStream to the expected final completion", async () => {
    const bytes = await encode(textAndToolCallEvents);
    const stream = openAiClient(bytes).chat.completions.stream({ model: 'my-alias', messages: [] });
    const completion = await stream.finalChatCompletion();
    expect(completion.model).toBe('my-alias');
    expect(completion.id).toBe('chatcmpl-01XFDUDYJgAACzvnptvVoYEL');
    expect(completion.choices).toHaveLength(1);
    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBe('Let me check the weather — ☀️?');
    expect(choice.message.tool_calls).toStrictEqual([
      {
        id: 'call_01A09q90qw90lq917835lq9',
        type: 'function',
        function: { name: 'get_weather', arguments: toolCallArguments },
      },
    ]);
    expect(completion.usage).toStrictEqual({
      prompt_tokens: 472,
      completion_tokens: 89,
      total_tokens: 561,
      prompt_tokens_details: { cached_tokens: 128 },
    });
  });

  it('sends role first, the finish chunk, a choices: [] usage chunk, then [DONE]', async () => {
    const bytes = await encode(textAndToolCallEvents);
    const chunks = await sdkChunks(bytes);
    expect(chunks[0]!.choices[0]!.delta).toStrictEqual({ role: 'assistant', content: '' });
    expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.model === 'my-alias')).toBe(true);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    const toolDeltas = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(toolDeltas[0]).toStrictEqual({
      index: 0,
      id: 'call_01A09q90qw90lq917835lq9',
      type: 'function',
      function: { name: 'get_weather', arguments: '' },
    });
    expect(toolDeltas.slice(1).every((d) => d.index === 0 && d.id === undefined)).toBe(true);
    const [finish, usage] = chunks.slice(-2);
    expect(finish!.choices[0]).toStrictEqual({
      index: 0,
      delta: {},
      logprobs: null,
      finish_reason: 'tool_calls',
    });
    expect(usage!.choices).toStrictEqual([]);
    expect(utf8(bytes).endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('orders output the same when usage arrives before finish, merging partial usage', async () => {
    const late = await sdkChunks(await encode(textAndToolCallEvents));
    const early = await sdkChunks(await encode(usageFirstEvents));
    const strip = (chunks: ChatCompletionChunk[]) => chunks.map(({ created: _c, ...rest }) => rest);
    expect(strip(early)).toStrictEqual(strip(late));
  });

  it('omits the usage chunk when asked to', async () => {
    const chunks = await sdkChunks(await encode(textAndToolCallEvents, { includeUsage: false }));
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('tool_calls');
    expect(chunks.some((c) => c.usage)).toBe(false);
  });

  it('decodes to the same events through shared/src/sse at every byte split', async () => {
    const bytes = await encode(textAndToolCallEvents);
    const whole = await decodeChunks([bytes]);
    expect(whole.at(-1)).toStrictEqual({ data: '[DONE]' });
    for (const split of everySplit(bytes)) expect(await decodeChunks(split)).toStrictEqual(whole);
  });

  it('ends with an error chunk the SDK throws as an APIError, and nothing after it', async () => {
    const bytes = await encode(failingEvents);
    expect(utf8(bytes)).not.toContain('[DONE]');
    expect(utf8(bytes)).not.toContain('ignored');
    const stream = openAiClient(bytes).chat.completions.stream({ model: 'my-alias', messages: [] });
    const error = await stream.finalChatCompletion().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).message).toContain('Upstream provider error');
    expect((error as APIError).type).toBe('upstream_error');
  });

  it('reports a stream that ends without finishing as an error, not a success', async () => {
    const events = await decodeChunks([await encode(textAndToolCallEvents.slice(0, 4))]);
    expect(JSON.parse(events.at(-1)!.data)).toStrictEqual({
      error: { message: 'Upstream stream ended before the response finished', type: 'upstream_error' },
    });
  });
});
