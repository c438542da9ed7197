import { describe, expect, it } from 'vitest';
import { plainTextResponse, textAndToolCallResponse } from '../../../test/wire/common/fixtures/canonical';
import { openAiClient } from '../../../test/wire/common/fixtures/sdk-clients';
import toolCallBody from '../../../test/wire/openai-chat/fixtures/response-tool-call.json';
import { renderChatCompletion } from './render-response';

describe('openai-chat response rendering', () => {
  it('renders text + tool call + cached usage under the client model name (golden)', () => {
    expect(renderChatCompletion(textAndToolCallResponse, 'my-alias', 1_700_000_000)).toStrictEqual(
      toolCallBody,
    );
  });

  it('renders plain text with a length finish and no cache details', () => {
    const body = renderChatCompletion(plainTextResponse, 'my-alias', 1);
    expect(body.id).toBe('chatcmpl-abc123');
    expect(body.choices[0]!.message).toStrictEqual({ role: 'assistant', content: 'Hello!', refusal: null });
    expect(body.choices[0]!.finish_reason).toBe('length');
    expect(body.usage).toStrictEqual({ prompt_tokens: 9, completion_tokens: 12, total_tokens: 21 });
  });

  it('gives null content beside tool calls and maps the canonical error finish to stop', () => {
    const body = renderChatCompletion(
      {
        ...textAndToolCallResponse,
        content: textAndToolCallResponse.content.slice(1),
        finishReason: 'error',
      },
      'm',
    );
    expect(body.choices[0]!.message.content).toBeNull();
    expect(body.choices[0]!.finish_reason).toBe('stop');
    expect(body.created).toBeGreaterThan(1_600_000_000);
  });

  it('is what the official SDK returns from chat.completions.create', async () => {
    const body = renderChatCompletion(textAndToolCallResponse, 'my-alias');
    const client = openAiClient(JSON.stringify(body), 'application/json');
    const completion = await client.chat.completions.create({ model: 'my-alias', messages: [] });
    expect(completion).toStrictEqual(body);
    const call = completion.choices[0]!.message.tool_calls![0]!;
    expect(call.type === 'function' && JSON.parse(call.function.arguments)).toEqual({
      location: 'San Francisco, CA',
      unit: 'celsius',
    });
  });
});
