import { describe, expect, it } from 'vitest';
import fullCanonical from '../../../test/wire/anthropic-messages/fixtures/request-full.canonical.json';
import fullRequest from '../../../test/wire/anthropic-messages/fixtures/request-full.json';
import { AppError } from '../../http/app-error';
import { parseMessagesRequest } from './to-canonical';

const minimal = { model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] };

function badRequestMessage(body: unknown): string {
  try {
    parseMessagesRequest(body);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    return (error as AppError).message;
  }
  throw new Error('expected a 400');
}

describe('anthropic-messages request parsing', () => {
  it('maps every supported field, block type and system form (golden)', () => {
    expect(parseMessagesRequest(fullRequest)).toStrictEqual(fullCanonical);
  });

  it('parses a minimal body with a string system prompt', () => {
    expect(parseMessagesRequest({ ...minimal, system: 'Be brief.' })).toStrictEqual({
      model: 'claude-sonnet-4-5',
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      maxTokens: 100,
      stream: false,
    });
  });

  it.each([
    [{ type: 'auto' }, 'auto', undefined],
    [{ type: 'any', disable_parallel_tool_use: false }, 'required', true],
    [{ type: 'none' }, 'none', undefined],
  ] as const)('maps tool_choice %j', (choice, expected, parallel) => {
    const parsed = parseMessagesRequest({ ...minimal, tool_choice: choice });
    expect(parsed.toolChoice).toBe(expected);
    expect(parsed.parallelToolCalls).toBe(parallel);
  });

  it('gives an empty tool_result an empty content list', () => {
    const parsed = parseMessagesRequest({
      ...minimal,
      messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1' }] }],
    });
    expect(parsed.messages[0]!.content).toStrictEqual([
      { type: 'tool_result', toolCallId: 't1', content: [] },
    ]);
  });

  it('keeps what it does not read: mid-conversation system turns, unknown blocks, server tools', () => {
    const document = { type: 'document', source: { type: 'file', file_id: 'f' } };
    const fileImage = { type: 'image', source: { type: 'file', file_id: 'f' } };
    const parsed = parseMessagesRequest({
      ...minimal,
      messages: [
        { role: 'user', content: [document, fileImage] },
        { role: 'system', content: 'Mind the date.' },
        { role: 'user', content: 'Hi' },
      ],
      tools: [{ name: 'web_search', type: 'web_search_20250305', max_uses: 2 }],
      context_management: { edits: [] },
    });
    expect(parsed.messages).toStrictEqual([
      {
        role: 'user',
        content: [
          { type: 'vendor', format: 'anthropic-messages', field: 'messages[0].content[0]', block: document },
          { type: 'vendor', format: 'anthropic-messages', field: 'messages[0].content[1]', block: fileImage },
        ],
      },
      { role: 'system', content: [{ type: 'text', text: 'Mind the date.' }] },
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
    ]);
    expect(parsed.tools).toStrictEqual([
      {
        kind: 'hosted',
        format: 'anthropic-messages',
        field: 'tools[0]',
        type: 'web_search_20250305',
        declaration: { name: 'web_search', type: 'web_search_20250305', max_uses: 2 },
      },
    ]);
  });

  it.each([
    [{ type: 'enabled', budget_tokens: 2048 }, undefined, { effort: 'low', budgetTokens: 2048 }],
    [{ type: 'enabled', budget_tokens: 31999 }, undefined, { effort: 'high', budgetTokens: 31999 }],
    [{ type: 'adaptive', display: 'omitted' }, 'high', { effort: 'high', summary: 'none' }],
    [{ type: 'adaptive' }, undefined, { effort: 'medium' }],
    [{ type: 'disabled' }, undefined, { effort: 'none' }],
    [undefined, 'max', { effort: 'high' }],
  ])('maps thinking %j with effort %s to %j (golden)', (thinking, effort, expected) => {
    const body = { ...minimal, ...(thinking && { thinking }), ...(effort && { output_config: { effort } }) };
    expect(parseMessagesRequest(body).reasoning).toStrictEqual(expected);
  });

  it.each([
    'extreme',
    'constructor',
    'toString',
    '__proto__',
  ])('reads an unknown output_config.effort (%s) as medium, Object.prototype names included', (effort) => {
    const parsed = parseMessagesRequest({ ...minimal, output_config: { effort } });
    expect(parsed.reasoning).toStrictEqual({ effort: 'medium' });
  });

  it('keeps sealed thinking sealed and Anthropic thinking as Anthropic', () => {
    const own = { type: 'thinking', thinking: 'Hm.', signature: 'EqQBCkgI' };
    const sealed = { type: 'thinking', thinking: 'Hm.', signature: 'sluice-r1.abc.def' };
    const parsed = parseMessagesRequest({
      ...minimal,
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: [own, sealed, { type: 'redacted_thinking', data: 'sluice-r1.x.y' }] },
        { role: 'user', content: 'Go on' },
      ],
    });
    expect(parsed.messages[1]?.content).toStrictEqual([
      { type: 'reasoning', text: 'Hm.', opaque: { vendor: 'anthropic', data: own } },
      {
        type: 'reasoning',
        text: 'Hm.',
        sealed: 'sluice-r1.abc.def',
        field: 'messages[1].content[1].signature',
      },
      { type: 'reasoning', text: '', sealed: 'sluice-r1.x.y', field: 'messages[1].content[2].data' },
    ]);
  });

  it.each([
    [{ model: 'm', messages: minimal.messages }, "Missing required parameter: 'max_tokens'"],
    [{ ...minimal, max_tokens: 0 }, "Invalid 'max_tokens'"],
    [{ ...minimal, temperature: 1.5 }, "Invalid 'temperature'"],
    [{ ...minimal, top_p: -0.1 }, "Invalid 'top_p'"],
    [{ ...minimal, messages: [] }, "Invalid 'messages': must contain at least one message"],
    [{ ...minimal, messages: [{ role: 'tool', content: 'x' }] }, "Invalid 'messages[0].role'"],
    [{ ...minimal, system: 42 }, "Invalid 'system'"],
    [
      { ...minimal, messages: [{ role: 'user', content: [{ type: 'text' }] }] },
      "Missing required parameter: 'messages[0].content[0].text'",
    ],
    [{ ...minimal, messages: [{ role: 'user', content: [{ text: 'no type' }] }] }, "'messages[0].content[0]"],
    [
      {
        ...minimal,
        messages: [{ role: 'user', content: [{ type: 'tool_use', id: 't', name: 'n', input: {} }] }],
      },
      "Invalid 'messages[0].content[0]': tool_use blocks belong in assistant messages",
    ],
    [
      { ...minimal, messages: [{ role: 'assistant', content: [{ type: 'tool_result', tool_use_id: 't' }] }] },
      "Invalid 'messages[0].content[0]': tool_result blocks belong in user messages",
    ],
    [{ ...minimal, thinking: { type: 'enabled', budget_tokens: 0 } }, "Invalid 'thinking.budget_tokens'"],
    [{ ...minimal, tools: [{ name: 'f' }] }, "Missing required parameter: 'tools[0].input_schema'"],
    [{ ...minimal, tool_choice: { type: 'tool' } }, "Missing required parameter: 'tool_choice.name'"],
    [{ ...minimal, stop_sequences: 'END' }, "Invalid 'stop_sequences'"],
  ])('rejects %j with a message naming the field', (body, expected) => {
    expect(badRequestMessage(body)).toContain(expected);
  });
});
