import { describe, expect, it } from 'vitest';
import { sequentialIds } from '../../../test/providers/common/test-fixtures';
import { AppError } from '../../http/app-error';
import { parseConverseResponse } from './response';

const options = { model: 'anthropic.claude-3-5-sonnet-20240620-v1:0', newId: sequentialIds() };

describe('Converse response parsing', () => {
  it('parses a text answer with cache usage folded into input', () => {
    const body = {
      metrics: { latencyMs: 812 },
      output: { message: { content: [{ text: 'Bonjour !' }], role: 'assistant' } },
      stopReason: 'end_turn',
      usage: {
        inputTokens: 12,
        outputTokens: 6,
        totalTokens: 2066,
        cacheReadInputTokens: 2000,
        cacheWriteInputTokens: 48,
      },
    };
    expect(parseConverseResponse(body, { ...options, newId: sequentialIds() })).toEqual({
      id: 'msg_1',
      model: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
      content: [{ type: 'text', text: 'Bonjour !' }],
      finishReason: 'stop',
      usage: { inputTokens: 2060, outputTokens: 6, cachedInputTokens: 2000, cacheWriteTokens: 48 },
    });
  });

  it('reads one-hour cache writes from cacheDetails', () => {
    const body = {
      output: { message: { content: [{ text: 'ok' }], role: 'assistant' } },
      stopReason: 'end_turn',
      usage: {
        inputTokens: 3,
        outputTokens: 1,
        totalTokens: 3004,
        cacheReadInputTokens: 0,
        cacheWriteInputTokens: 3000,
        cacheDetails: [
          { ttl: '1h', inputTokens: 2500 },
          { ttl: '5m', inputTokens: 500 },
        ],
      },
    };
    expect(parseConverseResponse(body, options).usage).toEqual({
      inputTokens: 3003,
      outputTokens: 1,
      cacheWriteTokens: 3000,
      cacheWrite1hTokens: 2500,
    });
  });

  it('parses tool use blocks, and reasoning blocks whole as Bedrock opaque reasoning', () => {
    const reasoning = {
      reasoningContent: { reasoningText: { text: 'User wants weather.', signature: 'EqQB' } },
    };
    const redacted = { reasoningContent: { redactedContent: 'RXFvQ0NrWUlC' } };
    const body = {
      output: {
        message: {
          role: 'assistant',
          content: [
            reasoning,
            redacted,
            { text: "I'll check the weather." },
            {
              toolUse: {
                toolUseId: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q',
                name: 'get_weather',
                input: { city: 'Paris' },
              },
            },
          ],
        },
      },
      stopReason: 'tool_use',
      usage: { inputTokens: 400, outputTokens: 70, totalTokens: 470 },
    };
    const parsed = parseConverseResponse(body, options);
    expect(parsed.content).toEqual([
      { type: 'reasoning', text: 'User wants weather.', opaque: { vendor: 'bedrock', data: reasoning } },
      { type: 'reasoning', text: '', opaque: { vendor: 'bedrock', data: redacted } },
      { type: 'text', text: "I'll check the weather." },
      {
        type: 'tool_call',
        id: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
      },
    ]);
    expect(parsed.finishReason).toBe('tool_calls');
    expect(parsed.usage).toEqual({ inputTokens: 400, outputTokens: 70 });
  });

  it.each([
    ['stop_sequence', 'stop'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['guardrail_intervened', 'content_filter'],
    ['content_filtered', 'content_filter'],
    ['malformed_tool_use', 'error'],
    ['something_new', 'stop'],
  ])('maps stopReason %s to %s', (stopReason, expected) => {
    const body = {
      output: { message: { role: 'assistant', content: [{ text: 'x' }] } },
      stopReason,
      usage: {},
    };
    expect(parseConverseResponse(body).finishReason).toBe(expected);
  });

  it('throws a 502 for a body that is not an object', () => {
    expect(() => parseConverseResponse(null)).toThrow(AppError);
  });
});
