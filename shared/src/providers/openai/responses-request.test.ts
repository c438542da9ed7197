import type {
  CustomTool,
  EasyInputMessage,
  FunctionTool,
  ResponseCreateParamsBase,
  ResponseCustomToolCall,
  ResponseCustomToolCallOutput,
  ResponseFormatTextConfig,
  ResponseFunctionToolCall,
  ResponseIncludable,
  ResponseInputItem,
  ResponseOutputMessage,
  ResponseReasoningItem,
  ToolChoiceCustom,
  ToolChoiceFunction,
  ToolChoiceOptions,
  WebSearchTool,
} from 'openai/resources/responses/responses';
import type { Reasoning } from 'openai/resources/shared';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { canonicalRequest, thrown } from '../../../test/providers/common/test-fixtures';
import type { CanonicalRequest, ToolDefinition } from '../../canonical/types';
import { AppError } from '../../http/app-error';
import { toResponsesBody } from './responses-request';
import type {
  ResponsesAssistantMessage,
  ResponsesCustomTool,
  ResponsesCustomToolCall,
  ResponsesFunctionCall,
  ResponsesFunctionTool,
  ResponsesInputContent,
  ResponsesInputMessage,
  ResponsesReasoning,
  ResponsesTextFormat,
  ResponsesToolChoice,
} from './responses-types';

const MODEL = 'gpt-5-codex';
const body = (overrides: Partial<CanonicalRequest> = {}, providerType = 'openai') =>
  toResponsesBody(canonicalRequest(overrides), { model: MODEL, providerType });

/** Asked for whenever reasoning is: it comes back encrypted, for the client to send again. */
const ENCRYPTED_REASONING = ['reasoning.encrypted_content'] as const;

/** OpenAI's reasoning item as its API returned it on an earlier turn (kept whole in opaque). */
const openAiReasoning: ResponseReasoningItem = {
  id: 'rs_68af2a1c5e0c8190b6d2b1f0a3c5e7d90a1b2c3d4e5f6a7b',
  type: 'reasoning',
  summary: [{ type: 'summary_text', text: '**Checking the weather**\n\nI should call the tool.' }],
  encrypted_content: 'gAAAAABor0ocV2x1Y0lhc2RmZ2hqa2w7enhjdmJubS4uLg==',
};

describe('Responses request types', () => {
  it('are assignable to the official SDK request types', () => {
    type UserMessage = Omit<ResponsesInputMessage, 'content'> & { content: ResponsesInputContent[] };
    expectTypeOf<UserMessage>().toExtend<EasyInputMessage>();
    // Stateless input has no item ids or statuses to give; the API takes the message without.
    expectTypeOf<ResponsesAssistantMessage>().toExtend<Omit<ResponseOutputMessage, 'id' | 'status'>>();
    expectTypeOf<ResponsesFunctionCall>().toExtend<ResponseFunctionToolCall>();
    expectTypeOf<ResponsesCustomToolCall>().toExtend<ResponseCustomToolCall>();
    type Output = string | ResponsesInputContent[];
    expectTypeOf<{
      type: 'function_call_output';
      call_id: string;
      output: Output;
    }>().toExtend<ResponseInputItem.FunctionCallOutput>();
    expectTypeOf<{
      type: 'custom_tool_call_output';
      call_id: string;
      output: Output;
    }>().toExtend<ResponseCustomToolCallOutput>();
    expectTypeOf<ResponsesFunctionTool>().toExtend<FunctionTool>();
    // The format is the client's own declaration, passed on as it came.
    expectTypeOf<Omit<ResponsesCustomTool, 'format'>>().toExtend<CustomTool>();
    expectTypeOf<{ type: 'web_search' }>().toExtend<WebSearchTool>();
    expectTypeOf<ResponsesToolChoice>().toExtend<ToolChoiceOptions | ToolChoiceFunction | ToolChoiceCustom>();
    expectTypeOf<ResponsesTextFormat>().toExtend<ResponseFormatTextConfig>();
    expectTypeOf<ResponsesReasoning>().toExtend<Reasoning>();
    expectTypeOf<typeof ENCRYPTED_REASONING>().toExtend<readonly ResponseIncludable[]>();
  });
});

const weatherTool: ToolDefinition = {
  kind: 'function',
  name: 'get_weather',
  description: 'Current weather',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const patchTool: ToolDefinition = {
  kind: 'custom',
  name: 'apply_patch',
  description: 'Apply a patch',
  format: { type: 'grammar', syntax: 'lark', definition: 'start: "*** Begin Patch"' },
};

describe('toResponsesBody', () => {
  it('maps a whole agent conversation: reasoning restored, calls and results in place (golden)', () => {
    const request = canonicalRequest({
      system: [
        { type: 'text', text: 'You are a coding agent.' },
        { type: 'text', text: 'Be brief.' },
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather in Paris? Then fix the bug in this screenshot.' },
            { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            {
              type: 'reasoning',
              text: 'Checking the weather',
              opaque: { vendor: 'openai', data: { ...openAiReasoning } },
            },
            // Another vendor's reasoning cannot be restored to OpenAI: dropped.
            {
              type: 'reasoning',
              text: 'Claude thinking',
              opaque: { vendor: 'anthropic', data: { type: 'thinking' } },
            },
            { type: 'text', text: 'Let me look.' },
            { type: 'tool_call', id: 'call_w1', name: 'get_weather', arguments: '{"city":"Paris"}' },
            {
              type: 'tool_call',
              id: 'call_p1',
              name: 'apply_patch',
              arguments: '{"input":"*** Begin Patch\\n*** End Patch"}',
            },
          ],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              toolCallId: 'call_w1',
              content: [
                { type: 'text', text: '18°C' },
                { type: 'text', text: 'sunny' },
              ],
            },
            {
              type: 'tool_result',
              toolCallId: 'call_p1',
              isError: true,
              content: [
                { type: 'text', text: 'patch failed' },
                { type: 'image', source: { kind: 'url', url: 'https://example.com/diff.png' } },
              ],
            },
            { type: 'text', text: 'Go on.' },
          ],
        },
        { role: 'system', content: [{ type: 'text', text: 'The user is on a train; keep it short.' }] },
      ],
      tools: [weatherTool, patchTool],
      toolChoice: 'auto',
      parallelToolCalls: true,
      maxTokens: 4096,
      reasoning: { effort: 'high' },
      stream: true,
      user: 'user-123',
      metadata: { trace: 'abc' },
    });
    const expected = {
      model: MODEL,
      instructions: 'You are a coding agent.\n\nBe brief.',
      input: [
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'Weather in Paris? Then fix the bug in this screenshot.' },
            { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' },
          ],
        },
        openAiReasoning,
        // An output message without id and status (checked above against the SDK type minus those).
        {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'Let me look.', annotations: [] }],
        } as unknown as ResponseOutputMessage,
        { type: 'function_call', call_id: 'call_w1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        {
          type: 'custom_tool_call',
          call_id: 'call_p1',
          name: 'apply_patch',
          input: '*** Begin Patch\n*** End Patch',
        },
        { type: 'function_call_output', call_id: 'call_w1', output: '18°C\n\nsunny' },
        {
          type: 'custom_tool_call_output',
          call_id: 'call_p1',
          output: [
            { type: 'input_text', text: 'patch failed' },
            { type: 'input_image', image_url: 'https://example.com/diff.png', detail: 'auto' },
          ],
        },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Go on.' }] },
        {
          type: 'message',
          role: 'developer',
          content: [{ type: 'input_text', text: 'The user is on a train; keep it short.' }],
        },
      ],
      max_output_tokens: 4096,
      user: 'user-123',
      reasoning: { effort: 'high', summary: 'auto' },
      tools: [
        {
          type: 'function',
          name: 'get_weather',
          description: 'Current weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          strict: false,
        },
        {
          type: 'custom',
          name: 'apply_patch',
          description: 'Apply a patch',
          format: { type: 'grammar', syntax: 'lark', definition: 'start: "*** Begin Patch"' },
        },
      ],
      tool_choice: 'auto',
      parallel_tool_calls: true,
      store: false,
      include: ['reasoning.encrypted_content'],
      stream: true,
    } satisfies ResponseCreateParamsBase;
    expect(toResponsesBody(request, { model: MODEL, providerType: 'openai' })).toEqual(expected);
  });

  it('maps a plain turn: no instructions, nothing unasked, always stateless', () => {
    expect(body()).toEqual({
      model: MODEL,
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hello' }] }],
      store: false,
    });
  });

  it('asks for encrypted reasoning only when reasoning is asked for or carried back', () => {
    // Models that do not reason refuse the include outright.
    expect(body({ reasoning: { effort: 'none' } })).not.toHaveProperty('include');
    expect(body({ reasoning: { effort: 'minimal' } }).include).toEqual(ENCRYPTED_REASONING);
    const restored = body({
      messages: [
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: '', opaque: { vendor: 'openai', data: { ...openAiReasoning } } },
          ],
        },
        { role: 'user', content: [{ type: 'text', text: 'Go on.' }] },
      ],
    });
    expect(restored.include).toEqual(ENCRYPTED_REASONING);
  });

  it('sends sampling settings without reasoning, and leaves out what the API lacks', () => {
    const out = body({
      temperature: 0.2,
      topP: 0.9,
      stop: ['END'],
      presencePenalty: 0.5,
      frequencyPenalty: 0.5,
      seed: 7,
      metadata: { trace: 'abc' },
      reasoning: { effort: 'none' },
    });
    expect(out).toMatchObject({ temperature: 0.2, top_p: 0.9 });
    for (const field of ['stop', 'presence_penalty', 'frequency_penalty', 'seed', 'metadata', 'reasoning']) {
      expect(out).not.toHaveProperty(field);
    }
  });

  it('asks for reasoning with a summary unless told none, and then without sampling settings', () => {
    expect(body({ reasoning: { effort: 'low' }, temperature: 1 })).toMatchObject({
      reasoning: { effort: 'low', summary: 'auto' },
    });
    expect(body({ reasoning: { effort: 'low' }, temperature: 1 })).not.toHaveProperty('temperature');
    expect(body({ reasoning: { effort: 'xhigh', summary: 'detailed' } }).reasoning).toEqual({
      effort: 'xhigh',
      summary: 'detailed',
    });
    expect(body({ reasoning: { effort: 'medium', summary: 'none', budgetTokens: 9000 } }).reasoning).toEqual({
      effort: 'medium',
    });
  });

  it('maps every response format to text.format', () => {
    const format = (responseFormat: CanonicalRequest['responseFormat']) => body({ responseFormat }).text;
    expect(format({ type: 'text' })).toEqual({ format: { type: 'text' } });
    expect(format({ type: 'json_object' })).toEqual({ format: { type: 'json_object' } });
    expect(format({ type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true })).toEqual(
      {
        format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true },
      },
    );
  });

  it('names the tool choice by the kind of tool it names, and sends strict functions as such', () => {
    const tools: ToolDefinition[] = [{ ...weatherTool, strict: true }, patchTool];
    expect(body({ tools, toolChoice: { name: 'apply_patch' } }).tool_choice).toEqual({
      type: 'custom',
      name: 'apply_patch',
    });
    const out = body({ tools, toolChoice: { name: 'get_weather' }, parallelToolCalls: false });
    expect(out.tool_choice).toEqual({ type: 'function', name: 'get_weather' });
    expect(out.parallel_tool_calls).toBe(false);
    expect((out.tools as Array<Record<string, unknown>>)[0]?.strict).toBe(true);
    expect(body({ tools: [{ kind: 'custom', name: 'shell' }] }).tools).toEqual([
      { type: 'custom', name: 'shell' },
    ]);
  });

  it('sends no tool_choice or parallel_tool_calls without tools', () => {
    const out = body({ tools: [], toolChoice: 'required', parallelToolCalls: true });
    expect(out).not.toHaveProperty('tools');
    expect(out).not.toHaveProperty('tool_choice');
    expect(out).not.toHaveProperty('parallel_tool_calls');
  });

  it('passes its own hosted tools on and turns another format’s web search into OpenAI’s', () => {
    const fileSearch = { type: 'file_search', vector_store_ids: ['vs_1'], max_num_results: 5 };
    const tools: ToolDefinition[] = [
      {
        kind: 'hosted',
        format: 'openai-responses',
        field: 'tools[0]',
        type: 'file_search',
        declaration: fileSearch,
      },
      {
        kind: 'hosted',
        format: 'anthropic-messages',
        field: 'tools[1]',
        type: 'web_search_20250305',
        declaration: { type: 'web_search_20250305', name: 'web_search', max_uses: 5 },
      },
    ];
    expect(body({ tools }).tools).toEqual([fileSearch, { type: 'web_search' }]);
  });

  it('refuses another vendor’s hosted tool with a 400 naming the field and the route type', () => {
    const tools: ToolDefinition[] = [
      {
        kind: 'hosted',
        format: 'anthropic-messages',
        field: 'tools[2]',
        type: 'code_execution_20250825',
        declaration: { type: 'code_execution_20250825', name: 'code_execution' },
      },
    ];
    const error = thrown(() => body({ tools }, 'azure_openai'));
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      status: 400,
      type: 'invalid_request_error',
      message:
        "Invalid 'tools[2]': tool type code_execution_20250825 has no equivalent on an azure_openai-type route",
    });
  });
});
