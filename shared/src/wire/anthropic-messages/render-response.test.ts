import { describe, expect, it } from 'vitest';
import toolCallBody from '../../../test/wire/anthropic-messages/fixtures/response-tool-call.json';
import { plainTextResponse, textAndToolCallResponse } from '../../../test/wire/common/fixtures/canonical';
import { anthropicClient } from '../../../test/wire/common/fixtures/sdk-clients';
import type { FinishReason } from '../../canonical/types';
import { renderMessagesResponse } from './render-response';

describe('anthropic-messages response rendering', () => {
  it('renders text + tool_use with parsed input and cache-split usage (golden)', () => {
    expect(renderMessagesResponse(textAndToolCallResponse, 'my-alias')).toStrictEqual(toolCallBody);
  });

  it('renders plain text; ids from other formats are re-prefixed', () => {
    const body = renderMessagesResponse(plainTextResponse, 'my-alias');
    expect(body.id).toBe('msg_abc123');
    expect(body.content).toStrictEqual([{ type: 'text', text: 'Hello!' }]);
    expect(body.usage).toStrictEqual({ input_tokens: 9, output_tokens: 12 });
  });

  it.each([
    ['stop', 'end_turn'],
    ['length', 'max_tokens'],
    ['tool_calls', 'tool_use'],
    ['content_filter', 'refusal'],
    ['error', 'end_turn'],
  ] as const)('maps finish %s to stop_reason %s', (finishReason: FinishReason, stopReason) => {
    expect(renderMessagesResponse({ ...plainTextResponse, finishReason }, 'm').stop_reason).toBe(stopReason);
  });

  it('gives tool_use an empty input object when the arguments are not a JSON object', () => {
    const body = renderMessagesResponse(
      { ...textAndToolCallResponse, content: [{ type: 'tool_call', id: 'x', name: 'f', arguments: '[1' }] },
      'm',
    );
    expect(body.content[0]).toStrictEqual({ type: 'tool_use', id: 'toolu_x', name: 'f', input: {} });
  });

  it('is what the official SDK returns from messages.create', async () => {
    const body = renderMessagesResponse(textAndToolCallResponse, 'my-alias');
    const client = anthropicClient(JSON.stringify(body), 'application/json');
    const message = await client.messages.create({ model: 'my-alias', max_tokens: 10, messages: [] });
    expect(message).toStrictEqual(body);
  });
});
