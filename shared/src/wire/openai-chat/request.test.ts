import { describe, expect, it } from 'vitest';
import fullCanonical from '../../../test/wire/openai-chat/fixtures/request-full.canonical.json';
import fullRequest from '../../../test/wire/openai-chat/fixtures/request-full.json';
import { AppError } from '../../http/app-error';
import { parseChatRequest } from './to-canonical';

const minimal = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] };

function badRequestMessage(body: unknown): string {
  try {
    parseChatRequest(body);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    expect((error as AppError).type).toBe('invalid_request_error');
    return (error as AppError).message;
  }
  throw new Error('expected a 400');
}

describe('openai-chat request parsing', () => {
  it('maps every supported field, image form, tool call and tool result (golden)', () => {
    expect(parseChatRequest(fullRequest)).toStrictEqual(fullCanonical);
  });

  it('parses a minimal body with nothing but defaults', () => {
    expect(parseChatRequest(minimal)).toStrictEqual({
      model: 'gpt-4o-mini',
      system: [],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      stream: false,
    });
  });

  it('treats null optional fields as absent, as the OpenAI API does', () => {
    const parsed = parseChatRequest({
      ...minimal,
      temperature: null,
      stop: null,
      tools: null,
      tool_choice: null,
      max_tokens: 12,
      max_completion_tokens: null,
    });
    expect(parsed.temperature).toBeUndefined();
    expect(parsed.tools).toBeUndefined();
    expect(parsed.maxTokens).toBe(12);
  });

  it.each([
    ['auto', 'auto'],
    ['none', 'none'],
    ['required', 'required'],
  ] as const)('maps tool_choice %s', (choice, expected) => {
    expect(parseChatRequest({ ...minimal, tool_choice: choice }).toolChoice).toBe(expected);
  });

  it('maps json_object and text response formats and a stop list', () => {
    expect(parseChatRequest({ ...minimal, response_format: { type: 'json_object' } }).responseFormat).toEqual(
      {
        type: 'json_object',
      },
    );
    expect(parseChatRequest({ ...minimal, response_format: { type: 'text' } }).responseFormat).toEqual({
      type: 'text',
    });
    expect(parseChatRequest({ ...minimal, stop: ['a', 'b'] }).stop).toEqual(['a', 'b']);
  });

  it('keeps what it does not read and places late system messages where they are', () => {
    const audio = { type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } };
    const search = { type: 'web_search_preview' };
    const parsed = parseChatRequest({
      ...minimal,
      reasoning_effort: 'high',
      messages: [
        { role: 'system', content: 'Be terse.' },
        { role: 'user', content: [audio] },
        { role: 'system', content: 'Mind the date.' },
        {
          role: 'assistant',
          content: null,
          reasoning_content: 'Thinking…',
          reasoning_details: [{ type: 'reasoning.encrypted', data: 'sluice-r1.a.b', format: 'sluice' }],
          tool_calls: [{ id: 'c1', type: 'custom', custom: { name: 'apply_patch', input: '*** Begin' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'done' },
      ],
      tools: [{ type: 'custom', custom: { name: 'apply_patch', description: 'Patch files' } }, search],
    });
    expect(parsed.system).toStrictEqual([{ type: 'text', text: 'Be terse.' }]);
    expect(parsed.reasoning).toStrictEqual({ effort: 'high' });
    expect(parsed.messages).toStrictEqual([
      {
        role: 'user',
        content: [{ type: 'vendor', format: 'openai-chat', field: 'messages[1].content[0]', block: audio }],
      },
      { role: 'system', content: [{ type: 'text', text: 'Mind the date.' }] },
      {
        role: 'assistant',
        content: [
          {
            type: 'reasoning',
            text: 'Thinking…',
            sealed: 'sluice-r1.a.b',
            field: 'messages[3].reasoning_details[0].data',
          },
          { type: 'tool_call', id: 'c1', name: 'apply_patch', arguments: '{"input":"*** Begin"}' },
        ],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', toolCallId: 'c1', content: [{ type: 'text', text: 'done' }] }],
      },
    ]);
    expect(parsed.tools).toStrictEqual([
      { kind: 'custom', name: 'apply_patch', description: 'Patch files' },
      {
        kind: 'hosted',
        format: 'openai-chat',
        field: 'tools[1]',
        type: 'web_search_preview',
        declaration: search,
      },
    ]);
  });

  it.each([
    [{ ...minimal, temperature: 3 }, "Invalid 'temperature'"],
    [{ ...minimal, presence_penalty: -5 }, "Invalid 'presence_penalty'"],
    [{ ...minimal, frequency_penalty: 2.5 }, "Invalid 'frequency_penalty'"],
    [{ ...minimal, top_p: 1.5 }, "Invalid 'top_p'"],
    [{ ...minimal, n: 2 }, "Invalid 'n': only n = 1 is supported"],
    [{ ...minimal, max_tokens: 0 }, "Invalid 'max_tokens'"],
    [{ ...minimal, max_tokens: 1.5 }, "Invalid 'max_tokens'"],
    [{ ...minimal, messages: [] }, "Invalid 'messages': must contain at least one message"],
    [{ model: 'm' }, "Missing required parameter: 'messages'"],
    [{ messages: minimal.messages }, "Missing required parameter: 'model'"],
    [{ ...minimal, messages: [{ role: 'wizard', content: 'x' }] }, "Invalid 'messages[0].role'"],
    [{ ...minimal, messages: [{ role: 'user', content: 5 }] }, "Invalid 'messages[0].content'"],
    [
      { ...minimal, messages: [{ role: 'tool', content: 'x' }] },
      "Missing required parameter: 'messages[0].tool_call_id'",
    ],
    [
      { ...minimal, messages: [{ role: 'user', content: [{ type: 'text' }] }] },
      "Missing required parameter: 'messages[0].content[0].text'",
    ],
    [
      { ...minimal, tools: [{ type: 'function', function: {} }] },
      "Missing required parameter: 'tools[0].function.name'",
    ],
    [{ ...minimal, tool_choice: 'sometimes' }, "Invalid 'tool_choice'"],
    [{ ...minimal, response_format: { type: 'yaml' } }, "Invalid 'response_format.type'"],
    [{ ...minimal, stream: 'yes' }, "Invalid 'stream'"],
  ])('rejects %j with a message naming the field', (body, expected) => {
    expect(badRequestMessage(body)).toContain(expected);
  });

  it('rejects image URLs that are neither http(s) nor base64 data URLs', () => {
    const image = (url: string) => ({
      ...minimal,
      messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url } }] }],
    });
    expect(badRequestMessage(image('ftp://x/y.png'))).toContain("'messages[0].content[0].image_url.url'");
    expect(badRequestMessage(image('data:image/png,rawbytes'))).toContain('base64');
  });

  it('rejects a body that is not an object', () => {
    expect(badRequestMessage([])).toBe('Request body must be a JSON object');
    expect(badRequestMessage('hi')).toBe('Request body must be a JSON object');
  });
});
