import { describe, expect, it } from 'vitest';
import { sequentialIds } from '../../../test/providers/common/test-fixtures';
import { AppError } from '../../http/app-error';
import { parseGeminiResponse } from './response';

describe('Gemini response parsing', () => {
  it('parses a text answer with usage, thinking and cache counts', () => {
    const body = {
      candidates: [
        {
          content: { parts: [{ text: 'Paris is the capital' }, { text: ' of France.' }], role: 'model' },
          finishReason: 'STOP',
          avgLogprobs: -0.12,
          index: 0,
        },
      ],
      usageMetadata: {
        promptTokenCount: 1200,
        candidatesTokenCount: 8,
        totalTokenCount: 1250,
        cachedContentTokenCount: 1024,
        thoughtsTokenCount: 42,
        promptTokensDetails: [{ modality: 'TEXT', tokenCount: 1200 }],
      },
      modelVersion: 'gemini-2.5-flash',
      responseId: 'mFBHaOXxN8ahz7IPk6ixoQk',
    };
    expect(parseGeminiResponse(body, { newId: sequentialIds() })).toEqual({
      id: 'mFBHaOXxN8ahz7IPk6ixoQk',
      model: 'gemini-2.5-flash',
      content: [{ type: 'text', text: 'Paris is the capital of France.' }],
      finishReason: 'stop',
      usage: { inputTokens: 1200, outputTokens: 50, cachedInputTokens: 1024 },
    });
  });

  it('parses function calls with generated ids and reports tool_calls', () => {
    const body = {
      candidates: [
        {
          content: {
            parts: [
              { text: 'thinking…', thought: true },
              { text: 'Let me check.' },
              {
                functionCall: { name: 'get_weather', args: { city: 'Paris' } },
                thoughtSignature: 'CiQBVKhc',
              },
              { functionCall: { name: 'get_time', args: {} } },
            ],
            role: 'model',
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 60, candidatesTokenCount: 20, totalTokenCount: 80 },
      modelVersion: 'gemini-2.0-flash',
      responseId: 'abc',
    };
    const parsed = parseGeminiResponse(body, { newId: sequentialIds() });
    expect(parsed.content).toEqual([
      { type: 'text', text: 'Let me check.' },
      { type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'tool_call', id: 'call_2', name: 'get_time', arguments: '{}' },
    ]);
    expect(parsed.finishReason).toBe('tool_calls');
    expect(parsed.usage).toEqual({ inputTokens: 60, outputTokens: 20 });
  });

  it.each([
    ['MAX_TOKENS', 'length'],
    ['SAFETY', 'content_filter'],
    ['RECITATION', 'content_filter'],
    ['BLOCKLIST', 'content_filter'],
    ['PROHIBITED_CONTENT', 'content_filter'],
    ['MALFORMED_FUNCTION_CALL', 'error'],
    ['OTHER', 'stop'],
  ])('maps finishReason %s to %s', (reason, expected) => {
    const body = {
      candidates: [{ content: { parts: [{ text: 'x' }], role: 'model' }, finishReason: reason }],
    };
    expect(parseGeminiResponse(body).finishReason).toBe(expected);
  });

  it('reports a blocked prompt (no candidates) as content_filter with the model from options', () => {
    const body = {
      promptFeedback: { blockReason: 'PROHIBITED_CONTENT' },
      usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 },
    };
    const parsed = parseGeminiResponse(body, { model: 'gemini-2.5-pro', newId: sequentialIds() });
    expect(parsed).toEqual({
      id: 'gen_1',
      model: 'gemini-2.5-pro',
      content: [],
      finishReason: 'content_filter',
      usage: { inputTokens: 9, outputTokens: 0 },
    });
  });

  it('throws a 502 for a body that is not an object', () => {
    expect(() => parseGeminiResponse('nope')).toThrow(AppError);
    expect(() => parseGeminiResponse([1])).toThrow(/unreadable/);
  });
});
