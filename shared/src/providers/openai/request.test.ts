import type {
  ChatCompletionMessageParam,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';
import type {
  ResponseFormatJSONObject,
  ResponseFormatJSONSchema,
  ResponseFormatText,
} from 'openai/resources/shared';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { canonicalRequest, withMessagesBlock } from '../../../test/providers/common/test-fixtures';
import type { CanonicalRequest } from '../../canonical/types';
import { toOpenAiBody } from './request';
import type { OpenAiMessage, OpenAiResponseFormat, OpenAiTool, OpenAiToolChoice } from './types';

const options = {
  model: 'gpt-4o-2024-08-06',
  maxTokensField: 'max_completion_tokens',
  sendModel: true,
  providerType: 'openai',
} as const;

describe('OpenAI request types', () => {
  it('are assignable to the official SDK request types', () => {
    expectTypeOf<OpenAiMessage>().toExtend<ChatCompletionMessageParam>();
    expectTypeOf<OpenAiTool>().toExtend<ChatCompletionTool>();
    expectTypeOf<OpenAiToolChoice>().toExtend<ChatCompletionToolChoiceOption>();
    expectTypeOf<OpenAiResponseFormat>().toExtend<
      ResponseFormatText | ResponseFormatJSONObject | ResponseFormatJSONSchema
    >();
  });
});

describe('toOpenAiBody', () => {
  it('maps a plain text turn with a system prompt', () => {
    const body = toOpenAiBody(
      canonicalRequest({
        system: [
          { type: 'text', text: 'Be brief.' },
          { type: 'text', text: 'Answer in French.' },
        ],
      }),
      options,
    );
    expect(body).toEqual({
      model: 'gpt-4o-2024-08-06',
      messages: [
        { role: 'system', content: 'Be brief.\n\nAnswer in French.' },
        { role: 'user', content: 'Hello' },
      ],
    });
  });

  it('maps a multi-turn conversation with images as content parts', () => {
    const body = toOpenAiBody(
      canonicalRequest({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
          {
            role: 'assistant',
            content: [
              { type: 'text', text: 'Hello! ' },
              { type: 'text', text: 'How can I help?' },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Compare these:' },
              { type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' } },
              { type: 'image', source: { kind: 'base64', mediaType: 'image/jpeg', data: '/9j/4AAQ' } },
            ],
          },
        ],
      }),
      options,
    );
    expect(body.messages).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello! How can I help?' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Compare these:' },
          { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
          { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQ' } },
        ],
      },
    ]);
  });

  it('maps tool calls and splits tool results into role:tool messages in order', () => {
    const body = toOpenAiBody(
      canonicalRequest({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
          {
            role: 'assistant',
            content: [
              { type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
              { type: 'tool_call', id: 'call_2', name: 'get_weather', arguments: '{"city":"Rome"}' },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'tool_result', toolCallId: 'call_1', content: [{ type: 'text', text: '18°C' }] },
              {
                type: 'tool_result',
                toolCallId: 'call_2',
                isError: true,
                content: [
                  { type: 'text', text: 'timeout' },
                  { type: 'image', source: { kind: 'url', url: 'https://example.com/radar.png' } },
                ],
              },
              { type: 'text', text: 'Summarise please.' },
            ],
          },
        ],
      }),
      options,
    );
    expect(body.messages).toEqual([
      { role: 'user', content: 'Weather in Paris and Rome?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
          { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '18°C' },
      { role: 'tool', tool_call_id: 'call_2', content: 'timeout' },
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: 'https://example.com/radar.png' } },
          { type: 'text', text: 'Summarise please.' },
        ],
      },
    ]);
  });

  it('keeps assistant text beside its tool calls', () => {
    const body = toOpenAiBody(
      canonicalRequest({
        messages: [
          {
            role: 'assistant',
            content: [
              { type: 'text', text: 'Checking.' },
              { type: 'tool_call', id: 'call_9', name: 'lookup', arguments: '{}' },
            ],
          },
        ],
      }),
      options,
    );
    expect(body.messages).toEqual([
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'lookup', arguments: '{}' } }],
      },
    ]);
  });

  it('maps tools, tool choice, parallel calls and every scalar parameter', () => {
    const body = toOpenAiBody(
      canonicalRequest({
        maxTokens: 256,
        temperature: 1.5,
        topP: 0.9,
        stop: ['END', '\n\n'],
        presencePenalty: 0.5,
        frequencyPenalty: -0.5,
        seed: 42,
        user: 'user-123',
        metadata: { trace: 'abc' },
        tools: [
          {
            kind: 'function',
            name: 'get_weather',
            description: 'Current weather',
            parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
          { kind: 'function', name: 'noop', parameters: { type: 'object', properties: {} } },
        ],
        toolChoice: { name: 'get_weather' },
        parallelToolCalls: false,
      }),
      options,
    );
    expect(body).toEqual({
      model: 'gpt-4o-2024-08-06',
      messages: [{ role: 'user', content: 'Hello' }],
      max_completion_tokens: 256,
      temperature: 1.5,
      top_p: 0.9,
      stop: ['END', '\n\n'],
      presence_penalty: 0.5,
      frequency_penalty: -0.5,
      seed: 42,
      user: 'user-123',
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Current weather',
            parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
        },
        { type: 'function', function: { name: 'noop', parameters: { type: 'object', properties: {} } } },
      ],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      parallel_tool_calls: false,
    });
  });

  it.each(['auto', 'none', 'required'] as const)('passes tool_choice %s through', (choice) => {
    const body = toOpenAiBody(
      canonicalRequest({ tools: [{ kind: 'function', name: 't', parameters: {} }], toolChoice: choice }),
      options,
    );
    expect(body.tool_choice).toBe(choice);
  });

  it('sends no tool_choice or parallel_tool_calls without tools (OpenAI rejects them)', () => {
    const body = toOpenAiBody(
      canonicalRequest({ tools: [], toolChoice: 'auto', parallelToolCalls: true }),
      options,
    );
    expect(body).not.toHaveProperty('tools');
    expect(body).not.toHaveProperty('tool_choice');
    expect(body).not.toHaveProperty('parallel_tool_calls');
  });

  it('maps every response format', () => {
    const format = (responseFormat: CanonicalRequest['responseFormat']) =>
      toOpenAiBody(canonicalRequest({ responseFormat }), options).response_format;
    expect(format({ type: 'text' })).toEqual({ type: 'text' });
    expect(format({ type: 'json_object' })).toEqual({ type: 'json_object' });
    expect(format({ type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true })).toEqual(
      {
        type: 'json_schema',
        json_schema: { name: 'answer', schema: { type: 'object' }, strict: true },
      },
    );
  });

  it('omits an empty stop list', () => {
    expect(toOpenAiBody(canonicalRequest({ stop: [] }), options)).not.toHaveProperty('stop');
  });

  it('asks for usage in the stream', () => {
    const body = toOpenAiBody(canonicalRequest({ stream: true }), options);
    expect(body.stream).toBe(true);
    expect(body.stream_options).toEqual({ include_usage: true });
  });

  it('honours the max tokens field name and leaves out the model when told', () => {
    const body = toOpenAiBody(canonicalRequest({ maxTokens: 100 }), {
      model: 'ignored',
      maxTokensField: 'max_tokens',
      sendModel: false,
      providerType: 'azure_openai',
    });
    expect(body).toEqual({ messages: [{ role: 'user', content: 'Hello' }], max_tokens: 100 });
  });

  it('says how hard to think as reasoning_effort, and nothing for none', () => {
    expect(toOpenAiBody(canonicalRequest({ reasoning: { effort: 'high' } }), options).reasoning_effort).toBe(
      'high',
    );
    expect(toOpenAiBody(canonicalRequest({ reasoning: { effort: 'none' } }), options)).not.toHaveProperty(
      'reasoning_effort',
    );
  });

  it('offers a custom tool as a function of one input string and drops reasoning parts', () => {
    const body = toOpenAiBody(
      canonicalRequest({
        tools: [{ kind: 'custom', name: 'apply_patch', description: 'Patch files' }],
        messages: [
          {
            role: 'assistant',
            content: [
              { type: 'reasoning', text: 'hmm', opaque: { vendor: 'openai', data: { type: 'reasoning' } } },
              { type: 'tool_call', id: 'c1', name: 'apply_patch', arguments: '{"input":"*** Begin Patch"}' },
            ],
          },
        ],
      }),
      options,
    );
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'apply_patch',
          description: 'Patch files',
          parameters: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] },
        },
      },
    ]);
    expect(body.messages).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'c1',
            type: 'function',
            function: { name: 'apply_patch', arguments: '{"input":"*** Begin Patch"}' },
          },
        ],
      },
    ]);
  });

  it('refuses another format’s block and hosted tool naming the field and the route type', () => {
    const document = { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'x' } };
    const withDocument = withMessagesBlock(document);
    expect(() => toOpenAiBody(withDocument, { ...options, providerType: 'custom' })).toThrow(
      "Invalid 'messages[0].content[0]': type document has no equivalent on a custom-type route",
    );
    const withSearch = canonicalRequest({
      tools: [
        {
          kind: 'hosted',
          format: 'openai-responses',
          field: 'tools[0]',
          type: 'file_search',
          declaration: { type: 'file_search' },
        },
      ],
    });
    expect(() => toOpenAiBody(withSearch, options)).toThrow(
      "Invalid 'tools[0]': tool type file_search has no equivalent on an openai-type route",
    );
  });
});
