import { describe, expect, it } from 'vitest';
import { canonicalRequest } from '../../../test/providers/common/test-fixtures';
import type { CanonicalRequest } from '../../canonical/types';
import { AppError } from '../../http/app-error';
import { toGeminiRequest } from './request';

const weatherTool = {
  kind: 'function' as const,
  name: 'get_weather',
  description: 'Current weather',
  parameters: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
};

describe('Gemini request mapping', () => {
  it('maps text, system and sampling parameters', () => {
    const body = toGeminiRequest(
      canonicalRequest({
        system: [
          { type: 'text', text: 'Be brief.' },
          { type: 'text', text: 'Answer in French.' },
        ],
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }],
        maxTokens: 256,
        temperature: 0.2,
        topP: 0.9,
        stop: ['END'],
        presencePenalty: 0.5,
        frequencyPenalty: 0.1,
        seed: 7,
        user: 'u-1',
        parallelToolCalls: false,
      }),
    );
    expect(body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'Hello' }] }],
      systemInstruction: { parts: [{ text: 'Be brief.' }, { text: 'Answer in French.' }] },
      generationConfig: {
        temperature: 0.2,
        topP: 0.9,
        maxOutputTokens: 256,
        stopSequences: ['END'],
        presencePenalty: 0.5,
        frequencyPenalty: 0.1,
        seed: 7,
      },
    });
  });

  it('maps multi-turn roles, merges consecutive turns and drops empty text', () => {
    const body = toGeminiRequest(
      canonicalRequest({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
          {
            role: 'user',
            content: [
              { type: 'text', text: '' },
              { type: 'text', text: 'Still there?' },
            ],
          },
          { role: 'assistant', content: [{ type: 'text', text: 'Yes.' }] },
          { role: 'user', content: [{ type: 'text', text: 'Good.' }] },
        ],
      }),
    );
    expect(body).toEqual({
      contents: [
        { role: 'user', parts: [{ text: 'Hi' }, { text: 'Still there?' }] },
        { role: 'model', parts: [{ text: 'Yes.' }] },
        { role: 'user', parts: [{ text: 'Good.' }] },
      ],
    });
  });

  it('maps base64 and data-URL images inline, http images as fileData with a guessed type', () => {
    const body = toGeminiRequest(
      canonicalRequest({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Compare' },
              { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0K' } },
              { type: 'image', source: { kind: 'url', url: 'data:image/webp;base64,UklGRg==' } },
              { type: 'image', source: { kind: 'url', url: 'https://example.com/cat.GIF?size=large' } },
              { type: 'image', source: { kind: 'url', url: 'https://example.com/photo' } },
            ],
          },
        ],
      }),
    );
    expect(body.contents[0]?.parts).toEqual([
      { text: 'Compare' },
      { inlineData: { mimeType: 'image/png', data: 'iVBORw0K' } },
      { inlineData: { mimeType: 'image/webp', data: 'UklGRg==' } },
      { fileData: { mimeType: 'image/gif', fileUri: 'https://example.com/cat.GIF?size=large' } },
      { fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/photo' } },
    ]);
  });

  it('maps tools with cleaned schemas and every tool choice', () => {
    const noArgs = { kind: 'function' as const, name: 'now', parameters: { type: 'object', properties: {} } };
    const base = canonicalRequest({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather?' }] }],
    });
    const body = toGeminiRequest({ ...base, tools: [weatherTool, noArgs], toolChoice: 'auto' });
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'get_weather',
            description: 'Current weather',
            parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
          { name: 'now' },
        ],
      },
    ]);
    expect(body.toolConfig).toEqual({ functionCallingConfig: { mode: 'AUTO' } });
    const config = (toolChoice: CanonicalRequest['toolChoice']) =>
      toGeminiRequest({ ...base, tools: [weatherTool], toolChoice }).toolConfig;
    expect(config('none')).toEqual({ functionCallingConfig: { mode: 'NONE' } });
    expect(config('required')).toEqual({ functionCallingConfig: { mode: 'ANY' } });
    expect(config({ name: 'get_weather' })).toEqual({
      functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] },
    });
    expect(config(undefined)).toBeUndefined();
    expect(toGeminiRequest({ ...base, toolChoice: 'none' }).toolConfig).toBeUndefined();
  });

  it('maps tool calls and results, naming each result after its call', () => {
    const body = toGeminiRequest(
      canonicalRequest({
        tools: [weatherTool],
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
          {
            role: 'assistant',
            content: [
              { type: 'text', text: 'Checking.' },
              { type: 'tool_call', id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
              { type: 'tool_call', id: 'call_b', name: 'get_weather', arguments: '{"city":' },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'tool_result', toolCallId: 'call_a', content: [{ type: 'text', text: '21°C' }] },
            ],
          },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                toolCallId: 'call_b',
                isError: true,
                content: [
                  { type: 'text', text: 'city missing' },
                  { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'AAAA' } },
                ],
              },
            ],
          },
        ],
      }),
    );
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Paris and Rome?' }] },
      {
        role: 'model',
        parts: [
          { text: 'Checking.' },
          { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
          { functionCall: { name: 'get_weather', args: {} } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'get_weather', response: { content: '21°C' } } },
          { functionResponse: { name: 'get_weather', response: { error: 'city missing' } } },
          { inlineData: { mimeType: 'image/png', data: 'AAAA' } },
        ],
      },
    ]);
  });

  it('adds the documented thought-signature sentinel to replayed calls for Gemini 3 only', () => {
    const history = canonicalRequest({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'tool_call', id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
            { type: 'tool_call', id: 'call_b', name: 'get_weather', arguments: '{"city":"Rome"}' },
          ],
        },
      ],
    });
    expect(toGeminiRequest(history, 'gemini-3-pro-preview').contents[1]?.parts).toEqual([
      {
        functionCall: { name: 'get_weather', args: { city: 'Paris' } },
        thoughtSignature: 'skip_thought_signature_validator',
      },
      { functionCall: { name: 'get_weather', args: { city: 'Rome' } } },
    ]);
    for (const model of ['gemini-2.5-flash', 'models/gemini-2.0-flash', '']) {
      expect(toGeminiRequest(history, model).contents[1]?.parts[0]).not.toHaveProperty('thoughtSignature');
    }
  });

  it('refuses a tool result that answers no earlier call', () => {
    const orphan = canonicalRequest({
      messages: [{ role: 'user', content: [{ type: 'tool_result', toolCallId: 'call_x', content: [] }] }],
    });
    expect(() => toGeminiRequest(orphan)).toThrow(AppError);
    expect(() => toGeminiRequest(orphan)).toThrow(/call_x/);
  });

  it('maps json_object and json_schema response formats', () => {
    const base = canonicalRequest({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'JSON please' }] }],
    });
    expect(toGeminiRequest({ ...base, responseFormat: { type: 'json_object' } }).generationConfig).toEqual({
      responseMimeType: 'application/json',
    });
    const schema = {
      type: 'object',
      properties: { name: { type: 'string' }, age: { type: ['integer', 'null'] } },
      required: ['name'],
      additionalProperties: false,
    };
    const body = toGeminiRequest({
      ...base,
      temperature: 0,
      responseFormat: { type: 'json_schema', name: 'person', schema, strict: true },
    });
    expect(body.generationConfig).toEqual({
      temperature: 0,
      responseMimeType: 'application/json',
      responseSchema: {
        type: 'object',
        properties: { name: { type: 'string' }, age: { type: 'integer', nullable: true } },
        required: ['name'],
      },
    });
    expect(toGeminiRequest({ ...base, responseFormat: { type: 'text' } }).generationConfig).toBeUndefined();
  });
});
