import type {
  Base64ImageSource,
  MessageCreateParamsBase,
  TextBlockParam,
  Tool,
  ToolChoice,
  ToolUseBlockParam,
  URLImageSource,
} from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { canonicalRequest } from '../../../test/providers/common/test-fixtures';
import type { UpstreamTarget } from '../../canonical/ports';
import type { CanonicalRequest } from '../../canonical/types';
import { ANTHROPIC_FALLBACK_MAX_TOKENS, toAnthropicBody } from './request';
import type {
  AnthropicImageSource,
  AnthropicTextBlock,
  AnthropicTool,
  AnthropicToolChoice,
  AnthropicToolUseBlock,
} from './types';

const MODEL = 'claude-sonnet-4-5-20250929';
const TARGET = { baseUrl: '', apiKey: 'k', upstreamModel: MODEL, config: {} };
const body = (overrides: Partial<CanonicalRequest> = {}, target: Partial<UpstreamTarget> = {}) =>
  toAnthropicBody(canonicalRequest(overrides), { ...TARGET, ...target });

describe('Anthropic request types', () => {
  it('match the official SDK request types', () => {
    expectTypeOf<AnthropicTextBlock>().toExtend<TextBlockParam>();
    expectTypeOf<AnthropicToolUseBlock>().toExtend<ToolUseBlockParam>();
    expectTypeOf<AnthropicTool>().toExtend<Tool>();
    expectTypeOf<AnthropicToolChoice>().toExtend<ToolChoice>();
    expectTypeOf<Extract<AnthropicImageSource, { type: 'url' }>>().toExtend<URLImageSource>();
    // media_type stays a string here: Anthropic names unsupported types in its own 400.
    expectTypeOf<keyof Extract<AnthropicImageSource, { type: 'base64' }>>().toEqualTypeOf<
      keyof Base64ImageSource
    >();
    // The SDK targets API version 2026-10-21, which has no temperature/top_p; this adapter
    // pins 2023-06-01, where both exist, so only the fields common to both are checked.
    expectTypeOf<'max_tokens' | 'stop_sequences' | 'metadata' | 'tool_choice' | 'output_config'>().toExtend<
      keyof MessageCreateParamsBase
    >();
  });
});

describe('toAnthropicBody', () => {
  it("maps a text turn with system blocks and, with no cap, the model's own limit or the fallback", () => {
    expect(
      body({
        system: [
          { type: 'text', text: 'Be brief.' },
          { type: 'text', text: '' },
        ],
      }),
    ).toEqual({
      model: MODEL,
      max_tokens: ANTHROPIC_FALLBACK_MAX_TOKENS,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }],
    });
    expect(body({}, { maxOutputTokens: 64_000 }).max_tokens).toBe(64_000);
    expect(body({ maxTokens: 100 }, { maxOutputTokens: 64_000 }).max_tokens).toBe(100);
  });

  it('maps images from base64, data: URLs and plain URLs', () => {
    const out = body({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'image', source: { kind: 'url', url: 'data:image/jpeg;base64,/9j/4AAQ' } },
            { type: 'image', source: { kind: 'url', url: 'https://example.com/cat.webp' } },
            { type: 'text', text: 'What are these?' },
          ],
        },
      ],
    });
    expect(out.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
          { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/4AAQ' } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/cat.webp' } },
          { type: 'text', text: 'What are these?' },
        ],
      },
    ]);
  });

  it('maps tool calls and results, merging same-role turns and putting results first', () => {
    const out = body({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking.' },
            { type: 'tool_call', id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
            { type: 'tool_call', id: 'toolu_2', name: 'get_weather', arguments: '{"city": tru' },
          ],
        },
        // OpenAI-format histories give each tool result its own message, then the user text.
        {
          role: 'user',
          content: [
            { type: 'tool_result', toolCallId: 'toolu_1', content: [{ type: 'text', text: '18°C' }] },
          ],
        },
        { role: 'user', content: [{ type: 'text', text: 'And summarise.' }] },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              toolCallId: 'toolu_2',
              isError: true,
              content: [
                { type: 'text', text: 'timeout' },
                { type: 'image', source: { kind: 'base64', mediaType: 'image/gif', data: 'R0lGOD' } },
              ],
            },
          ],
        },
      ],
    });
    expect(out.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: '18°C' }] },
          {
            type: 'tool_result',
            tool_use_id: 'toolu_2',
            is_error: true,
            content: [
              { type: 'text', text: 'timeout' },
              { type: 'image', source: { type: 'base64', media_type: 'image/gif', data: 'R0lGOD' } },
            ],
          },
          { type: 'text', text: 'And summarise.' },
        ],
      },
    ]);
  });

  it('turns non-object tool arguments into {} and drops empty turns', () => {
    const out = body({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
        { role: 'assistant', content: [{ type: 'text', text: '' }] },
        { role: 'user', content: [{ type: 'text', text: 'Still there?' }] },
        { role: 'assistant', content: [{ type: 'tool_call', id: 't', name: 'f', arguments: '[1,2]' }] },
        { role: 'user', content: [{ type: 'tool_result', toolCallId: 't', content: [] }] },
      ],
    });
    expect(out.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Hi' },
          { type: 'text', text: 'Still there?' },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't' }] },
    ]);
  });

  it('maps scalar parameters, clamping temperature and moving user into metadata', () => {
    const out = body({
      maxTokens: 1024,
      temperature: 1.7,
      topP: 0.9,
      stop: ['END'],
      user: 'user-123',
      presencePenalty: 1,
      frequencyPenalty: 1,
      seed: 7,
      stream: true,
    });
    expect(out).toEqual({
      model: MODEL,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }],
      max_tokens: 1024,
      temperature: 1,
      top_p: 0.9,
      stop_sequences: ['END'],
      metadata: { user_id: 'user-123' },
      stream: true,
    });
    expect(body({ temperature: -0.5 }).temperature).toBe(0);
    expect(body({ stop: [] })).not.toHaveProperty('stop_sequences');
  });

  it('maps tools with an object input schema', () => {
    const out = body({
      tools: [
        {
          kind: 'function',
          name: 'get_weather',
          description: 'Current weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
        },
        { kind: 'function', name: 'ping', parameters: {} },
      ],
    });
    expect(out.tools).toEqual([
      {
        name: 'get_weather',
        description: 'Current weather',
        input_schema: { type: 'object', properties: { city: { type: 'string' } } },
      },
      { name: 'ping', input_schema: { type: 'object' } },
    ]);
    expect(out).not.toHaveProperty('tool_choice');
  });

  it.each([
    ['auto', undefined, { type: 'auto' }],
    ['required', undefined, { type: 'any' }],
    [{ name: 'get_weather' }, undefined, { type: 'tool', name: 'get_weather' }],
    ['none', undefined, { type: 'none' }],
    ['none', false, { type: 'none' }],
    [undefined, false, { type: 'auto', disable_parallel_tool_use: true }],
    ['required', false, { type: 'any', disable_parallel_tool_use: true }],
    [{ name: 'x' }, false, { type: 'tool', name: 'x', disable_parallel_tool_use: true }],
  ] as const)('maps tool_choice %j with parallel %s', (toolChoice, parallelToolCalls, expected) => {
    const out = body({
      tools: [{ kind: 'function', name: 'get_weather', parameters: {} }],
      toolChoice,
      parallelToolCalls,
    });
    expect(out.tool_choice).toEqual(expected);
  });

  it('sends no tool settings without tools', () => {
    const out = body({ tools: [], toolChoice: 'required', parallelToolCalls: false });
    expect(out).not.toHaveProperty('tools');
    expect(out).not.toHaveProperty('tool_choice');
  });

  it('maps a JSON schema response format to structured outputs and drops plain JSON mode', () => {
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };
    expect(body({ responseFormat: { type: 'json_schema', name: 'a', schema } }).output_config).toEqual({
      format: { type: 'json_schema', schema },
    });
    expect(body({ responseFormat: { type: 'json_object' } })).not.toHaveProperty('output_config');
    expect(body({ responseFormat: { type: 'text' } })).not.toHaveProperty('output_config');
  });
});
