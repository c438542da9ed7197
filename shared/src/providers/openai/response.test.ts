import type { ChatCompletion } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../http/app-error';
import { parseOpenAiResponse } from './response';

/** As api.openai.com returns it (field for field, per the SDK's ChatCompletion type). */
const toolCallCompletion = {
  id: 'chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG',
  object: 'chat.completion',
  created: 1741570283,
  model: 'gpt-4o-2024-08-06',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: 'Let me check both cities.',
        tool_calls: [
          {
            id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"location":"Paris, France"}' },
          },
          {
            id: 'call_ABCD1234efgh5678ijkl9012',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"location":"Rome, Italy"}' },
          },
        ],
        refusal: null,
        annotations: [],
      },
      logprobs: null,
      finish_reason: 'tool_calls',
    },
  ],
  usage: {
    prompt_tokens: 1117,
    completion_tokens: 46,
    total_tokens: 1163,
    prompt_tokens_details: { cached_tokens: 1024, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  },
  service_tier: 'default',
  system_fingerprint: 'fp_fc9f1d7035',
} satisfies ChatCompletion;

function textCompletion(finishReason: ChatCompletion.Choice['finish_reason'], content: string | null) {
  return {
    ...toolCallCompletion,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal: null, annotations: [] },
        logprobs: null,
        finish_reason: finishReason,
      },
    ],
  } satisfies ChatCompletion;
}

describe('parseOpenAiResponse', () => {
  it('reads text, tool calls, finish reason and usage with cached tokens', () => {
    expect(parseOpenAiResponse(toolCallCompletion)).toEqual({
      id: 'chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG',
      model: 'gpt-4o-2024-08-06',
      content: [
        { type: 'text', text: 'Let me check both cities.' },
        {
          type: 'tool_call',
          id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA',
          name: 'get_weather',
          arguments: '{"location":"Paris, France"}',
        },
        {
          type: 'tool_call',
          id: 'call_ABCD1234efgh5678ijkl9012',
          name: 'get_weather',
          arguments: '{"location":"Rome, Italy"}',
        },
      ],
      finishReason: 'tool_calls',
      usage: { inputTokens: 1117, outputTokens: 46, cachedInputTokens: 1024 },
    });
  });

  it('reads reasoning tokens through the chat format’s usage reader', () => {
    const usage = {
      ...toolCallCompletion.usage,
      completion_tokens_details: {
        ...toolCallCompletion.usage.completion_tokens_details,
        reasoning_tokens: 30,
      },
    };
    expect(parseOpenAiResponse({ ...toolCallCompletion, usage }).usage).toEqual({
      inputTokens: 1117,
      outputTokens: 46,
      cachedInputTokens: 1024,
      reasoningTokens: 30,
    });
  });

  it('reads a compatible server’s reasoning_content (or reasoning) as reasoning text before the answer', () => {
    const base = textCompletion('stop', '42');
    const withReasoning = (fields: Record<string, unknown>) => ({
      ...base,
      choices: [{ ...base.choices[0], message: { ...base.choices[0]!.message, ...fields } }],
    });
    expect(parseOpenAiResponse(withReasoning({ reasoning_content: 'Six times seven.' })).content).toEqual([
      { type: 'reasoning', text: 'Six times seven.' },
      { type: 'text', text: '42' },
    ]);
    expect(parseOpenAiResponse(withReasoning({ reasoning: 'Thinking.' })).content[0]).toEqual({
      type: 'reasoning',
      text: 'Thinking.',
    });
  });

  it.each([
    ['stop', 'stop'],
    ['length', 'length'],
    ['content_filter', 'content_filter'],
    ['function_call', 'tool_calls'],
  ] as const)('maps finish_reason %s to %s', (vendor, canonical) => {
    expect(parseOpenAiResponse(textCompletion(vendor, 'x')).finishReason).toBe(canonical);
  });

  it('returns no text part for null content and surfaces a refusal as text', () => {
    expect(parseOpenAiResponse(textCompletion('stop', null)).content).toEqual([]);
    const refused = textCompletion('stop', null);
    const body = {
      ...refused,
      choices: [
        {
          ...refused.choices[0],
          message: { ...refused.choices[0]!.message, refusal: 'I can’t help with that.' },
        },
      ],
    };
    expect(parseOpenAiResponse(body).content).toEqual([{ type: 'text', text: 'I can’t help with that.' }]);
  });

  it('tolerates a compatible server that sends no usage or details', () => {
    const { usage: _usage, ...withoutUsage } = textCompletion('stop', 'hi');
    expect(parseOpenAiResponse(withoutUsage).usage).toEqual({ inputTokens: 0, outputTokens: 0 });
    const minimal = { ...withoutUsage, usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } };
    expect(parseOpenAiResponse(minimal).usage).toEqual({ inputTokens: 5, outputTokens: 2 });
  });

  it('rejects a body without choices as a 502 upstream error', () => {
    for (const body of [null, 'text', {}, { choices: [] }, { choices: [{ index: 0 }] }]) {
      expect(() => parseOpenAiResponse(body)).toThrow(AppError);
    }
    try {
      parseOpenAiResponse({});
    } catch (error) {
      expect(error).toMatchObject({ status: 502, type: 'upstream_error' });
    }
  });
});
