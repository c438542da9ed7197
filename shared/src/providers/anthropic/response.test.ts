import type { Message } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../http/app-error';
import { parseAnthropicResponse } from './response';

/** What both shapes of the same tool-use answer hold alike. */
const answer = {
  id: 'msg_01Aq9w938a90dw8q',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5-20250929',
  stop_reason: 'tool_use',
  stop_sequence: null,
} as const;
const toolUse = {
  type: 'tool_use',
  id: 'toolu_01A09q90qw90lq917835lq9',
  name: 'get_weather',
  input: { location: 'Paris, France', unit: 'celsius' },
} as const;
const usage = {
  input_tokens: 472,
  cache_creation_input_tokens: 128,
  cache_read_input_tokens: 2048,
  cache_creation: { ephemeral_5m_input_tokens: 128, ephemeral_1h_input_tokens: 0 },
  output_tokens: 89,
  service_tier: 'standard',
} as const;

/** The answer as POST /v1/messages returns it under anthropic-version 2023-06-01. */
const toolUseMessage = {
  ...answer,
  content: [{ type: 'text', text: "I'll check the weather in Paris." }, toolUse],
  usage,
};

/** The same answer in the installed SDK's (newer API version's) full shape. */
const sdkShapedMessage = {
  ...answer,
  container: null,
  diagnostics: null,
  stop_details: null,
  content: [
    {
      type: 'thinking',
      thinking: 'The user wants the weather.',
      signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds',
    },
    { type: 'text', text: "I'll check the weather in Paris.", citations: null },
    { ...toolUse, caller: { type: 'direct' } },
  ],
  usage: {
    ...usage,
    inference_geo: null,
    output_tokens_details: null,
    server_tool_use: null,
    speed: 'standard',
  },
} satisfies Message;

const expected = {
  id: 'msg_01Aq9w938a90dw8q',
  model: 'claude-sonnet-4-5-20250929',
  content: [
    { type: 'text', text: "I'll check the weather in Paris." },
    {
      type: 'tool_call',
      id: 'toolu_01A09q90qw90lq917835lq9',
      name: 'get_weather',
      arguments: '{"location":"Paris, France","unit":"celsius"}',
    },
  ],
  finishReason: 'tool_calls',
  // 472 uncached + 128 written to cache + 2048 read from cache = the whole prompt.
  usage: { inputTokens: 2648, outputTokens: 89, cachedInputTokens: 2048, cacheWriteTokens: 128 },
};

describe('parseAnthropicResponse', () => {
  it('reads text and tool_use blocks, stop reason and total input usage', () => {
    expect(parseAnthropicResponse(toolUseMessage)).toEqual(expected);
  });

  it('reads the SDK-typed shape too, keeping the thinking block whole for the next turn', () => {
    const [thinking, text, call] = sdkShapedMessage.content;
    const parsed = parseAnthropicResponse(sdkShapedMessage);
    expect(parsed).toEqual({
      ...expected,
      content: [
        {
          type: 'reasoning',
          text: 'The user wants the weather.',
          opaque: { vendor: 'anthropic', data: thinking },
        },
        ...expected.content,
      ],
    });
    expect([text, call]).toHaveLength(2);
  });

  it('keeps redacted thinking and server tool blocks whole as Anthropic reasoning', () => {
    const redacted = { type: 'redacted_thinking', data: 'EmwKAhgB' };
    const search = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } };
    const parsed = parseAnthropicResponse({ ...toolUseMessage, content: [redacted, search] });
    expect(parsed.content).toEqual([
      { type: 'reasoning', text: '', opaque: { vendor: 'anthropic', data: redacted } },
      { type: 'reasoning', text: '', opaque: { vendor: 'anthropic', data: search } },
    ]);
  });

  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['pause_turn', 'stop'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['tool_use', 'tool_calls'],
    ['refusal', 'content_filter'],
    [null, 'stop'],
    ['a_reason_of_next_year', 'stop'],
    ['constructor', 'stop'],
    ['toString', 'stop'],
  ] as const)('maps stop_reason %s to %s', (stopReason, finishReason) => {
    expect(parseAnthropicResponse({ ...toolUseMessage, stop_reason: stopReason }).finishReason).toBe(
      finishReason,
    );
  });

  it('handles usage without cache fields', () => {
    const body = { ...toolUseMessage, usage: { input_tokens: 10, output_tokens: 3 } };
    expect(parseAnthropicResponse(body).usage).toEqual({ inputTokens: 10, outputTokens: 3 });
  });

  it('rejects a body without content as a 502 upstream error', () => {
    for (const body of [null, [], { type: 'message' }, { content: 'text' }]) {
      expect(() => parseAnthropicResponse(body)).toThrow(AppError);
    }
  });
});
