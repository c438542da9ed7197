import { describe, expect, it } from 'vitest';
import { canonicalRequest } from '../../../test/providers/common/test-fixtures';
import type { CanonicalMessage, CanonicalRequest, ToolDefinition } from '../../canonical/types';
import { AppError } from '../../http/app-error';
import { type ConverseTarget, toConverseRequest } from './request';

/** A model without Claude's fields or cache checkpoints: the portable Converse mapping. */
const llama: ConverseTarget = { upstreamModel: 'meta.llama3-3-70b-instruct-v1:0' };
const convert = (request: CanonicalRequest) => toConverseRequest(request, llama);

const user = (text: string): CanonicalMessage => ({ role: 'user', content: [{ type: 'text', text }] });
const weatherTool: ToolDefinition = {
  kind: 'function',
  name: 'get_weather',
  description: 'Current weather',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const toolTurns: CanonicalMessage[] = [
  user('Weather in Paris?'),
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Checking.' },
      { type: 'tool_call', id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'tool_call', id: 'call_b', name: 'get_weather', arguments: 'not json' },
    ],
  },
  {
    role: 'user',
    content: [{ type: 'tool_result', toolCallId: 'call_a', content: [{ type: 'text', text: '21°C' }] }],
  },
  {
    role: 'user',
    content: [
      { type: 'tool_result', toolCallId: 'call_b', isError: true, content: [{ type: 'text', text: '' }] },
    ],
  },
];

describe('Converse request mapping', () => {
  it('maps text, system and inference parameters', () => {
    expect(
      convert(
        canonicalRequest({
          system: [
            { type: 'text', text: 'Be brief.' },
            { type: 'text', text: ' ' },
          ],
          messages: [user('Hello')],
          maxTokens: 512,
          temperature: 0.3,
          topP: 0.8,
          stop: ['\n\nHuman:'],
          seed: 1,
          presencePenalty: 1,
        }),
      ),
    ).toEqual({
      messages: [{ role: 'user', content: [{ text: 'Hello' }] }],
      system: [{ text: 'Be brief.' }],
      inferenceConfig: { maxTokens: 512, temperature: 0.3, topP: 0.8, stopSequences: ['\n\nHuman:'] },
    });
  });

  it('merges consecutive same-role messages so roles alternate', () => {
    const body = convert(
      canonicalRequest({
        messages: [
          user('One'),
          user('Two'),
          { role: 'assistant', content: [{ type: 'text', text: 'Ok' }] },
          user('Three'),
        ],
      }),
    );
    expect(body.messages).toEqual([
      { role: 'user', content: [{ text: 'One' }, { text: 'Two' }] },
      { role: 'assistant', content: [{ text: 'Ok' }] },
      { role: 'user', content: [{ text: 'Three' }] },
    ]);
  });

  it('maps base64 and data-URL images to image blocks', () => {
    const body = convert(
      canonicalRequest({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', source: { kind: 'base64', mediaType: 'image/jpeg', data: '/9j/4AAQ' } },
              { type: 'image', source: { kind: 'url', url: 'data:image/png;base64,iVBORw0K' } },
              { type: 'text', text: 'What differs?' },
            ],
          },
        ],
      }),
    );
    expect(body.messages[0]?.content).toEqual([
      { image: { format: 'jpeg', source: { bytes: '/9j/4AAQ' } } },
      { image: { format: 'png', source: { bytes: 'iVBORw0K' } } },
      { text: 'What differs?' },
    ]);
  });

  it('refuses http image URLs and unsupported image types with a 400', () => {
    const withImage = (url: string) =>
      canonicalRequest({
        messages: [{ role: 'user', content: [{ type: 'image', source: { kind: 'url', url } }] }],
      });
    const refusal = (() => {
      try {
        convert(withImage('https://example.com/cat.png'));
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ status: 400, message: expect.stringMatching(/base64/) });
    expect(() => convert(withImage('data:image/tiff;base64,AAAA'))).toThrow(/png, jpeg, gif and webp/);
  });

  it('maps tools and every tool choice; "none" withholds the tools', () => {
    const base = canonicalRequest({ messages: [user('Weather?')], tools: [weatherTool] });
    const spec = {
      toolSpec: {
        name: 'get_weather',
        description: 'Current weather',
        inputSchema: { json: weatherTool.parameters },
      },
    };
    expect(convert(base).toolConfig).toEqual({ tools: [spec] });
    expect(convert({ ...base, toolChoice: 'auto' }).toolConfig).toEqual({
      tools: [spec],
      toolChoice: { auto: {} },
    });
    expect(convert({ ...base, toolChoice: 'required' }).toolConfig?.toolChoice).toEqual({
      any: {},
    });
    expect(convert({ ...base, toolChoice: { name: 'get_weather' } }).toolConfig?.toolChoice).toEqual({
      tool: { name: 'get_weather' },
    });
    expect(convert({ ...base, toolChoice: 'none' }).toolConfig).toBeUndefined();
  });

  it('maps tool calls and results, with error status and a placeholder for empty output', () => {
    const body = convert(canonicalRequest({ messages: toolTurns, tools: [weatherTool] }));
    expect(body.messages).toEqual([
      { role: 'user', content: [{ text: 'Weather in Paris?' }] },
      {
        role: 'assistant',
        content: [
          { text: 'Checking.' },
          { toolUse: { toolUseId: 'call_a', name: 'get_weather', input: { city: 'Paris' } } },
          { toolUse: { toolUseId: 'call_b', name: 'get_weather', input: {} } },
        ],
      },
      {
        role: 'user',
        content: [
          { toolResult: { toolUseId: 'call_a', content: [{ text: '21°C' }] } },
          { toolResult: { toolUseId: 'call_b', content: [{ text: '(no output)' }], status: 'error' } },
        ],
      },
    ]);
  });

  it('renders tool history as text when no tools are offered (Converse would refuse it)', () => {
    const body = convert(canonicalRequest({ messages: toolTurns, tools: [weatherTool], toolChoice: 'none' }));
    expect(body.toolConfig).toBeUndefined();
    expect(body.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { text: 'Checking.' },
          { text: '[tool call get_weather (call_a): {"city":"Paris"}]' },
          { text: '[tool call get_weather (call_b): not json]' },
        ],
      },
      {
        role: 'user',
        content: [
          { text: '[tool result for call_a]: 21°C' },
          { text: '[tool error for call_b]: (no output)' },
        ],
      },
    ]);
    expect(convert(canonicalRequest({ messages: toolTurns })).messages).toEqual(body.messages);
  });
});
