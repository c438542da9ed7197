import { describe, expect, it } from 'vitest';
import { thrown } from '../../../test/providers/common/test-fixtures';
import type { CanonicalMessage, ToolDefinition } from '../../canonical/types';
import { toResponsesInput } from './responses-input';

const patchTool: ToolDefinition = { kind: 'custom', name: 'apply_patch' };
const input = (messages: CanonicalMessage[], providerType = 'openai', tools: ToolDefinition[] = []) =>
  toResponsesInput({ messages, tools }, providerType);

/** The reasoning item OpenAI returned on an earlier turn, restorable only to OpenAI. */
const openAiReasoning = { id: 'rs_1', type: 'reasoning', summary: [], encrypted_content: 'gAAAAABo' };

const document = { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'x' } };

describe('toResponsesInput', () => {
  it('sends client items and parts of its own format as they came', () => {
    const webSearchCall = {
      type: 'web_search_call',
      id: 'ws_1',
      status: 'completed',
      action: { type: 'search', query: 'weather paris' },
    };
    const file = { type: 'input_file', file_id: 'file-abc' };
    const out = input([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Read this:' },
          { type: 'vendor', format: 'openai-responses', field: 'input[0].content[1]', block: file },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'vendor', format: 'openai-responses', field: 'input[1]', block: webSearchCall },
          { type: 'text', text: 'Found it.' },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            toolCallId: 'call_1',
            content: [
              { type: 'text', text: 'see file' },
              { type: 'vendor', format: 'openai-responses', field: 'input[2].output[1]', block: file },
            ],
          },
        ],
      },
    ]);
    expect(out).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Read this:' }, file] },
      webSearchCall,
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Found it.', annotations: [] }],
      },
      {
        type: 'function_call_output',
        call_id: 'call_1',
        output: [{ type: 'input_text', text: 'see file' }, file],
      },
    ]);
  });

  it.each([
    ['an', 'openai'],
    ['a', 'custom'],
  ])('refuses another format’s block with a 400 naming the field and %s %s-type route', (article, type) => {
    const messages: CanonicalMessage[] = [
      {
        role: 'user',
        content: [
          { type: 'vendor', format: 'anthropic-messages', field: 'messages[0].content[1]', block: document },
        ],
      },
    ];
    expect(thrown(() => input(messages, type))).toMatchObject({
      status: 400,
      type: 'invalid_request_error',
      message: `Invalid 'messages[0].content[1]': type document has no equivalent on ${article} ${type}-type route`,
    });
  });

  it('refuses another format’s block inside a tool result too', () => {
    const messages: CanonicalMessage[] = [
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            toolCallId: 'c',
            content: [
              { type: 'vendor', format: 'openai-chat', field: 'messages[2].content[0]', block: document },
            ],
          },
        ],
      },
    ];
    expect(thrown(() => input(messages))).toMatchObject({
      status: 400,
      message: "Invalid 'messages[2].content[0]': type document has no equivalent on an openai-type route",
    });
  });

  it('drops reasoning it cannot restore and what has no meaning in a turn', () => {
    const out = input([
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'summary only' },
          { type: 'reasoning', text: '', sealed: 'sluice-r1.abc.def' },
          { type: 'reasoning', text: 'Bedrock', opaque: { vendor: 'bedrock', data: { reasoningText: {} } } },
          // Reasoning the model did unasked, returned without its encrypted content: not restorable.
          {
            type: 'reasoning',
            text: '',
            opaque: { vendor: 'openai', data: { id: 'rs_2', type: 'reasoning', summary: [] } },
          },
          { type: 'text', text: '' },
          { type: 'text', text: 'Hi' },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'reasoning', text: 'x', opaque: { vendor: 'openai', data: openAiReasoning } },
          { type: 'tool_call', id: 'c', name: 'f', arguments: '{}' },
          { type: 'text', text: 'Again' },
        ],
      },
      {
        role: 'system',
        content: [{ type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' } }],
      },
    ]);
    expect(out).toEqual([
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hi', annotations: [] }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Again' }] },
    ]);
  });

  it('keeps a user turn’s parts in order around its tool results', () => {
    const out = input([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'before' },
          { type: 'tool_result', toolCallId: 'c1', content: [] },
          { type: 'text', text: 'after' },
        ],
      },
    ]);
    expect(out).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'before' }] },
      { type: 'function_call_output', call_id: 'c1', output: '' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'after' }] },
    ]);
  });

  it('answers a custom call in kind, and sends arguments not of the canonical shape as its text', () => {
    const out = input(
      [
        {
          role: 'assistant',
          content: [{ type: 'tool_call', id: 'c1', name: 'apply_patch', arguments: 'raw text' }],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', toolCallId: 'c1', content: [{ type: 'text', text: 'ok' }] }],
        },
      ],
      'openai',
      [patchTool],
    );
    expect(out).toEqual([
      { type: 'custom_tool_call', call_id: 'c1', name: 'apply_patch', input: 'raw text' },
      { type: 'custom_tool_call_output', call_id: 'c1', output: 'ok' },
    ]);
  });
});
