import { describe, expect, it } from 'vitest';
import { sequentialIds } from '../../../test/providers/common/test-fixtures';
import { everySplit, runTransform } from '../../../test/providers/common/test-streams';
import type { StreamEvent } from '../../canonical/types';
import { googleAdapter } from './adapter';
import { createGeminiStreamDecoder } from './stream';

const decoder = () => createGeminiStreamDecoder({ model: 'fallback-model', newId: sequentialIds() });
const sse = (chunks: unknown[]) =>
  new TextEncoder().encode(chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join(''));

const meta = { modelVersion: 'gemini-2.5-flash', responseId: 'mFBHaOXxN8ahz7IPk6ixoQk' };
// As streamGenerateContent?alt=sse sends it: each event a full response, CRLF-delimited.
const weatherStream = sse([
  {
    candidates: [{ content: { parts: [{ text: 'Let me check the' }], role: 'model' }, index: 0 }],
    usageMetadata: {
      promptTokenCount: 42,
      totalTokenCount: 42,
      promptTokensDetails: [{ modality: 'TEXT', tokenCount: 42 }],
    },
    ...meta,
  },
  {
    candidates: [{ content: { parts: [{ text: ' weather — ☀️ ou pluie?' }], role: 'model' }, index: 0 }],
    usageMetadata: { promptTokenCount: 42, totalTokenCount: 42 },
    ...meta,
  },
  {
    candidates: [
      {
        content: {
          parts: [
            {
              functionCall: { name: 'get_forecast', args: { city: 'Paris', days: 3 } },
              thoughtSignature: 'CiIBVKhc',
            },
            { functionCall: { name: 'get_time', args: {} } },
          ],
          role: 'model',
        },
        finishReason: 'STOP',
        index: 0,
      },
    ],
    usageMetadata: {
      promptTokenCount: 42,
      candidatesTokenCount: 25,
      totalTokenCount: 90,
      cachedContentTokenCount: 10,
      thoughtsTokenCount: 23,
    },
    ...meta,
  },
]);

const expectedWeather: StreamEvent[] = [
  { type: 'start', id: 'mFBHaOXxN8ahz7IPk6ixoQk', model: 'gemini-2.5-flash' },
  { type: 'text_start', index: 0 },
  { type: 'text_delta', index: 0, text: 'Let me check the' },
  { type: 'text_delta', index: 0, text: ' weather — ☀️ ou pluie?' },
  { type: 'block_stop', index: 0 },
  { type: 'tool_call_start', index: 1, id: 'call_1', name: 'get_forecast' },
  { type: 'tool_call_delta', index: 1, argumentsDelta: '{"city":"Paris","days":3}' },
  { type: 'block_stop', index: 1 },
  { type: 'tool_call_start', index: 2, id: 'call_2', name: 'get_time' },
  { type: 'tool_call_delta', index: 2, argumentsDelta: '{}' },
  { type: 'block_stop', index: 2 },
  { type: 'finish', finishReason: 'tool_calls' },
  { type: 'usage', usage: { inputTokens: 42, outputTokens: 48, cachedInputTokens: 10 } },
];

describe('Gemini stream decoder', () => {
  it('maps text deltas, whole function calls, finish and last usage', async () => {
    expect(await runTransform(decoder(), [weatherStream])).toEqual(expectedWeather);
  });

  it('gives identical events at every byte split and one byte per chunk', async () => {
    for (const chunks of everySplit(weatherStream)) {
      expect(await runTransform(decoder(), chunks)).toEqual(expectedWeather);
    }
  });

  it('maps a text answer cut by MAX_TOKENS, with usage arriving after the finish chunk', async () => {
    const bytes = sse([
      {
        candidates: [
          { content: { parts: [{ text: 'Once upon' }], role: 'model' }, finishReason: 'MAX_TOKENS' },
        ],
      },
      { usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2, totalTokenCount: 7 } },
    ]);
    expect(await runTransform(decoder(), [bytes])).toEqual([
      { type: 'start', id: 'gen_1', model: 'fallback-model' },
      { type: 'text_start', index: 0 },
      { type: 'text_delta', index: 0, text: 'Once upon' },
      { type: 'block_stop', index: 0 },
      { type: 'finish', finishReason: 'length' },
      { type: 'usage', usage: { inputTokens: 5, outputTokens: 2 } },
    ]);
  });

  it('reports an error chunk and ignores what follows', async () => {
    const bytes = sse([
      { candidates: [{ content: { parts: [{ text: 'Hel' }], role: 'model' } }], ...meta },
      {
        error: {
          code: 503,
          message: 'The model is overloaded. Please try again later.',
          status: 'UNAVAILABLE',
        },
      },
      {
        candidates: [{ content: { parts: [{ text: 'lo' }], role: 'model' }, finishReason: 'STOP' }],
        ...meta,
      },
    ]);
    expect(await runTransform(decoder(), [bytes])).toEqual([
      { type: 'start', id: meta.responseId, model: meta.modelVersion },
      { type: 'text_start', index: 0 },
      { type: 'text_delta', index: 0, text: 'Hel' },
      { type: 'block_stop', index: 0 },
      {
        type: 'error',
        errorType: 'api_error',
        message: 'The model is overloaded. Please try again later. (UNAVAILABLE)',
      },
    ]);
  });

  it('reports a stream that ends without a finish reason', async () => {
    const bytes = sse([{ candidates: [{ content: { parts: [{ text: 'Hi' }], role: 'model' } }], ...meta }]);
    const events = await runTransform(decoder(), [bytes]);
    expect(events.slice(-2)).toEqual([
      { type: 'block_stop', index: 0 },
      { type: 'error', errorType: 'upstream_error', message: 'Gemini stream ended before a finish reason' },
    ]);
  });

  it('is what the adapter hands out, with random call ids', async () => {
    const events = await runTransform(googleAdapter.createStreamDecoder(), [weatherStream]);
    const start = events.find((e) => e.type === 'tool_call_start');
    expect(start).toMatchObject({ type: 'tool_call_start', name: 'get_forecast' });
    expect(start?.type === 'tool_call_start' && start.id).toMatch(/^call_[A-Za-z0-9_-]{24}$/);
    expect(events).toHaveLength(expectedWeather.length);
  });
});
