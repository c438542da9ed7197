import type {
  Response,
  ResponseFunctionWebSearch,
  ResponseReasoningItem,
} from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { thrown } from '../../../test/providers/common/test-fixtures';
import { AppError } from '../../http/app-error';
import { parseResponsesResponse } from './responses-response';

const reasoningItem: ResponseReasoningItem = {
  id: 'rs_68af2a1c5e0c8190b6d2b1f0a3c5e7d9',
  type: 'reasoning',
  summary: [
    { type: 'summary_text', text: '**Planning the call**' },
    { type: 'summary_text', text: 'The user wants the weather.' },
  ],
  encrypted_content: 'gAAAAABor0ocV2x1Y0lhc2RmZ2hqa2w7enhjdmJubS4uLg==',
};

const webSearchItem: ResponseFunctionWebSearch = {
  id: 'ws_68af2a1d77a48190',
  type: 'web_search_call',
  status: 'completed',
  action: { type: 'search', query: 'paris weather today' },
};

/** As api.openai.com returns it with store:false and reasoning.encrypted_content included. */
const toolCallResponse = {
  id: 'resp_68af2a1b8f5c8190a1b2c3d4e5f6a7b8',
  object: 'response',
  created_at: 1756310043,
  status: 'completed',
  background: false,
  error: null,
  incomplete_details: null,
  instructions: 'You are a coding agent.',
  max_output_tokens: 4096,
  model: 'gpt-5-codex',
  output: [
    reasoningItem,
    webSearchItem,
    {
      id: 'msg_68af2a1e0c548190',
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [
        { type: 'output_text', text: 'Checking ', annotations: [], logprobs: [] },
        { type: 'output_text', text: 'both.', annotations: [], logprobs: [] },
      ],
    },
    {
      id: 'fc_68af2a1f3e7c8190',
      type: 'function_call',
      status: 'completed',
      call_id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA',
      name: 'get_weather',
      arguments: '{"city":"Paris"}',
    },
    {
      id: 'fc_68af2a1f3e7c8191',
      type: 'function_call',
      status: 'completed',
      call_id: 'call_Ns1',
      name: 'read_file',
      namespace: 'fs',
      arguments: '{"path":"a.ts"}',
    },
    {
      id: 'ctc_68af2a20a1b28190',
      type: 'custom_tool_call',
      call_id: 'call_Custom1',
      name: 'apply_patch',
      input: '*** Begin Patch\n*** End Patch',
    },
  ],
  output_text: 'Checking both.',
  parallel_tool_calls: true,
  previous_response_id: null,
  reasoning: { effort: 'high', summary: 'detailed' },
  temperature: 1,
  text: { format: { type: 'text' }, verbosity: 'medium' },
  tool_choice: 'auto',
  tools: [],
  top_p: 1,
  truncation: 'disabled',
  usage: {
    input_tokens: 5210,
    input_tokens_details: { cached_tokens: 4096, cache_write_tokens: 0 },
    output_tokens: 812,
    output_tokens_details: { reasoning_tokens: 640 },
    total_tokens: 6022,
  },
  user: undefined,
  metadata: {},
} satisfies Response;

const message: Response['output'][number] = {
  id: 'msg_1',
  type: 'message',
  status: 'completed',
  role: 'assistant',
  content: [{ type: 'output_text', text: 'Hi', annotations: [] }],
};

function withStatus(
  status: Response['status'],
  incomplete: Response['incomplete_details'],
  output: Response['output'] = [message],
): Response {
  return { ...toolCallResponse, status, incomplete_details: incomplete, output };
}

describe('parseResponsesResponse', () => {
  it('reads reasoning, other items, text and every kind of call, with usage (golden)', () => {
    expect(parseResponsesResponse(toolCallResponse)).toEqual({
      id: 'resp_68af2a1b8f5c8190a1b2c3d4e5f6a7b8',
      model: 'gpt-5-codex',
      content: [
        {
          type: 'reasoning',
          text: '**Planning the call**\n\nThe user wants the weather.',
          opaque: { vendor: 'openai', data: reasoningItem },
        },
        { type: 'reasoning', text: '', opaque: { vendor: 'openai', data: webSearchItem } },
        { type: 'text', text: 'Checking both.' },
        {
          type: 'tool_call',
          id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA',
          name: 'get_weather',
          arguments: '{"city":"Paris"}',
        },
        { type: 'tool_call', id: 'call_Ns1', name: 'fs__read_file', arguments: '{"path":"a.ts"}' },
        {
          type: 'tool_call',
          id: 'call_Custom1',
          name: 'apply_patch',
          arguments: JSON.stringify({ input: '*** Begin Patch\n*** End Patch' }),
        },
      ],
      finishReason: 'tool_calls',
      usage: { inputTokens: 5210, outputTokens: 812, cachedInputTokens: 4096, reasoningTokens: 640 },
    });
  });

  it.each([
    ['completed', null, 'stop'],
    ['incomplete', { reason: 'max_output_tokens' }, 'length'],
    ['incomplete', { reason: 'content_filter' }, 'content_filter'],
    ['failed', null, 'error'],
    ['cancelled', null, 'error'],
  ] as const)('maps status %s (%j) to %s', (status, incomplete, reason) => {
    expect(parseResponsesResponse(withStatus(status, incomplete)).finishReason).toBe(reason);
  });

  it('keeps a refusal visible as text and reads open models’ reasoning text', () => {
    const body = withStatus('completed', null, [
      {
        id: 'rs_1',
        type: 'reasoning',
        summary: [],
        content: [{ type: 'reasoning_text', text: 'thinking aloud' }],
      },
      {
        id: 'msg_1',
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'refusal', refusal: 'I can’t help with that.' }],
      },
    ]);
    const content = parseResponsesResponse(body).content;
    expect(content[0]).toMatchObject({ type: 'reasoning', text: 'thinking aloud' });
    expect(content[1]).toEqual({ type: 'text', text: 'I can’t help with that.' });
  });

  it('tolerates a compatible server that sends no usage', () => {
    const { usage: _usage, ...withoutUsage } = withStatus('completed', null);
    expect(parseResponsesResponse(withoutUsage).usage).toEqual({ inputTokens: 0, outputTokens: 0 });
  });

  it('rejects a body without output as a 502 upstream error', () => {
    for (const body of [null, 'text', {}, { output: 'x' }]) {
      const error = thrown(() => parseResponsesResponse(body));
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ status: 502, type: 'upstream_error' });
    }
  });
});
