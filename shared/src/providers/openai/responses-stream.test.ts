import type {
  Response,
  ResponseReasoningItem,
  ResponseStreamEvent,
} from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { decodeAtEverySplit } from '../../../test/providers/common/test-streams';
import type { StreamEvent } from '../../canonical/types';
import { openAiAdapter } from './adapter';

/** A stream event as the SDK types it, its sequence number given by `sse` below. */
type Event = ResponseStreamEvent extends infer E
  ? E extends ResponseStreamEvent
    ? Omit<E, 'sequence_number'>
    : never
  : never;

const ID = 'resp_68af2a1b8f5c8190a1b2c3d4e5f6a7b8';
const MODEL = 'gpt-5-codex';

function response(status: Response['status'], output: Response['output'] = []): Response {
  return {
    id: ID,
    object: 'response',
    created_at: 1756310043,
    status,
    error: null,
    incomplete_details: null,
    instructions: null,
    model: MODEL,
    output,
    output_text: '',
    parallel_tool_calls: true,
    temperature: 1,
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    metadata: {},
  };
}

const usage: Response['usage'] = {
  input_tokens: 5210,
  input_tokens_details: { cached_tokens: 4096, cache_write_tokens: 0 },
  output_tokens: 812,
  output_tokens_details: { reasoning_tokens: 640 },
  total_tokens: 6022,
};
const canonicalUsage = {
  inputTokens: 5210,
  outputTokens: 812,
  cachedInputTokens: 4096,
  reasoningTokens: 640,
};

/** Byte for byte as api.openai.com streams it: the event name, then the event with its number. */
function sse(events: Event[]): string {
  return events
    .map((event, n) => `event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number: n })}\n\n`)
    .join('');
}

const reasoningItem: ResponseReasoningItem = {
  id: 'rs_1',
  type: 'reasoning',
  summary: [
    { type: 'summary_text', text: '**Plan** Check' },
    { type: 'summary_text', text: 'Then patch.' },
  ],
  encrypted_content: 'gAAAAABor0ocV2x1Y0lhc2Rm',
};
const at = (output_index: number, item_id: string) => ({ output_index, item_id });

const agentTurn: Event[] = [
  { type: 'response.created', response: response('in_progress') },
  { type: 'response.in_progress', response: response('in_progress') },
  {
    type: 'response.output_item.added',
    output_index: 0,
    item: { id: 'rs_1', type: 'reasoning', summary: [] },
  },
  {
    type: 'response.reasoning_summary_part.added',
    ...at(0, 'rs_1'),
    summary_index: 0,
    part: { type: 'summary_text', text: '' },
  },
  { type: 'response.reasoning_summary_text.delta', ...at(0, 'rs_1'), summary_index: 0, delta: '**Plan** ' },
  { type: 'response.reasoning_summary_text.delta', ...at(0, 'rs_1'), summary_index: 0, delta: 'Check' },
  { type: 'response.reasoning_summary_text.delta', ...at(0, 'rs_1'), summary_index: 1, delta: 'Then patch.' },
  { type: 'response.output_item.done', output_index: 0, item: reasoningItem },
  {
    type: 'response.output_item.added',
    output_index: 1,
    item: { id: 'msg_1', type: 'message', status: 'in_progress', role: 'assistant', content: [] },
  },
  {
    type: 'response.content_part.added',
    ...at(1, 'msg_1'),
    content_index: 0,
    part: { type: 'output_text', text: '', annotations: [] },
  },
  {
    type: 'response.output_text.delta',
    ...at(1, 'msg_1'),
    content_index: 0,
    delta: 'Je vérifie ',
    logprobs: [],
  },
  { type: 'response.output_text.delta', ...at(1, 'msg_1'), content_index: 0, delta: '🌦', logprobs: [] },
  {
    type: 'response.output_text.done',
    ...at(1, 'msg_1'),
    content_index: 0,
    text: 'Je vérifie 🌦',
    logprobs: [],
  },
  {
    type: 'response.output_item.done',
    output_index: 1,
    item: {
      id: 'msg_1',
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'Je vérifie 🌦', annotations: [] }],
    },
  },
  {
    type: 'response.output_item.added',
    output_index: 2,
    item: {
      id: 'fc_1',
      type: 'function_call',
      status: 'in_progress',
      call_id: 'call_W',
      name: 'get_weather',
      arguments: '',
    },
  },
  { type: 'response.function_call_arguments.delta', ...at(2, 'fc_1'), delta: '{"city":' },
  { type: 'response.function_call_arguments.delta', ...at(2, 'fc_1'), delta: '"Paris"}' },
  {
    type: 'response.function_call_arguments.done',
    ...at(2, 'fc_1'),
    name: 'get_weather',
    arguments: '{"city":"Paris"}',
  },
  {
    type: 'response.output_item.done',
    output_index: 2,
    item: {
      id: 'fc_1',
      type: 'function_call',
      status: 'completed',
      call_id: 'call_W',
      name: 'get_weather',
      arguments: '{"city":"Paris"}',
    },
  },
  {
    type: 'response.output_item.added',
    output_index: 3,
    item: { id: 'ctc_1', type: 'custom_tool_call', call_id: 'call_P', name: 'apply_patch', input: '' },
  },
  { type: 'response.custom_tool_call_input.delta', ...at(3, 'ctc_1'), delta: '*** Begin' },
  { type: 'response.custom_tool_call_input.delta', ...at(3, 'ctc_1'), delta: ' Patch' },
  { type: 'response.custom_tool_call_input.done', ...at(3, 'ctc_1'), input: '*** Begin Patch' },
  {
    type: 'response.output_item.done',
    output_index: 3,
    item: {
      id: 'ctc_1',
      type: 'custom_tool_call',
      call_id: 'call_P',
      name: 'apply_patch',
      input: '*** Begin Patch',
    },
  },
  { type: 'response.completed', response: { ...response('completed'), usage } },
];

const expected: StreamEvent[] = [
  { type: 'start', id: ID, model: MODEL },
  { type: 'reasoning_start', index: 0 },
  { type: 'reasoning_delta', index: 0, text: '**Plan** ' },
  { type: 'reasoning_delta', index: 0, text: 'Check' },
  { type: 'reasoning_delta', index: 0, text: '\n\nThen patch.' },
  { type: 'reasoning_opaque', index: 0, opaque: { vendor: 'openai', data: { ...reasoningItem } } },
  { type: 'block_stop', index: 0 },
  { type: 'text_start', index: 1 },
  { type: 'text_delta', index: 1, text: 'Je vérifie ' },
  { type: 'text_delta', index: 1, text: '🌦' },
  { type: 'block_stop', index: 1 },
  { type: 'tool_call_start', index: 2, id: 'call_W', name: 'get_weather' },
  { type: 'tool_call_delta', index: 2, argumentsDelta: '{"city":' },
  { type: 'tool_call_delta', index: 2, argumentsDelta: '"Paris"}' },
  { type: 'block_stop', index: 2 },
  { type: 'tool_call_start', index: 3, id: 'call_P', name: 'apply_patch' },
  { type: 'tool_call_delta', index: 3, argumentsDelta: '{"input":"*** Begin Patch"}' },
  { type: 'block_stop', index: 3 },
  { type: 'finish', finishReason: 'tool_calls' },
  { type: 'usage', usage: canonicalUsage },
];

/** Only the main fixture runs at every split point; the rest whole and byte by byte. */
const decode = (text: string) =>
  decodeAtEverySplit(() => openAiAdapter.createStreamDecoder(), text, 'whole-and-bytewise');

const message = (text: string) => ({
  id: 'msg_1',
  type: 'message' as const,
  status: 'completed' as const,
  role: 'assistant' as const,
  content: [{ type: 'output_text' as const, text, annotations: [] }],
});

describe('Responses stream decoder', () => {
  it('decodes reasoning, text, a function and a custom call identically at every split', async () => {
    const results = await decodeAtEverySplit(() => openAiAdapter.createStreamDecoder(), sse(agentTurn));
    expect(results).toHaveLength(1);
    expect(results[0]).toEqual(expected);
  }, 120_000);

  it.each([
    ['response.incomplete', 'incomplete', { reason: 'max_output_tokens' }, 'length'],
    ['response.incomplete', 'incomplete', { reason: 'content_filter' }, 'content_filter'],
    ['response.failed', 'failed', null, 'error'],
  ] as const)('ends at %s (%j) with finish %s and the usage so far', async (type, status, details, reason) => {
    const terminal = { ...response(status), incomplete_details: details, usage };
    const events = [
      { type: 'response.created', response: response('in_progress') },
      { type: 'response.output_item.added', output_index: 0, item: { ...message(''), content: [] } },
      { type: 'response.output_text.delta', ...at(0, 'msg_1'), content_index: 0, delta: 'Hel', logprobs: [] },
      { type, response: terminal },
    ] as Event[];
    const [decoded] = await decode(sse(events));
    expect(decoded?.slice(-4)).toEqual([
      { type: 'text_delta', index: 0, text: 'Hel' },
      { type: 'block_stop', index: 0 },
      { type: 'finish', finishReason: reason },
      { type: 'usage', usage: canonicalUsage },
    ]);
  });

  it('turns an error event into an error and stops', async () => {
    const text = sse([
      { type: 'response.created', response: response('in_progress') },
      {
        type: 'error',
        code: 'server_error',
        message: 'The server had an error (key sk-proj-abcdef123456).',
        param: null,
      },
      { type: 'response.completed', response: response('completed') },
    ]);
    const [decoded] = await decode(text);
    expect(decoded).toEqual([
      { type: 'start', id: ID, model: MODEL },
      { type: 'error', errorType: 'server_error', message: 'The server had an error (key sk-[redacted]).' },
    ]);
  });

  it('reports a stream cut off before its terminal event, and an unreadable event', async () => {
    const created: Event = { type: 'response.created', response: response('in_progress') };
    const cut = await decode(sse([created]));
    expect(cut[0]?.at(-1)).toEqual({
      type: 'error',
      errorType: 'upstream_error',
      message: 'Upstream stream ended before completion',
    });
    const [unreadable] = await decode(
      `${sse([created])}event: response.output_text.delta\ndata: {"type":\n\n`,
    );
    expect(unreadable?.at(-1)).toMatchObject({
      type: 'error',
      message: 'Upstream sent an unreadable stream event',
    });
    const [sentinel] = await decode(`${sse([created])}data: [DONE]\n\n`);
    expect(sentinel?.at(-1)).toMatchObject({
      type: 'error',
      message: 'Upstream stream ended before completion',
    });
  });

  it('opens and closes items a server sends only whole, and ignores event types it does not know', async () => {
    const call = {
      id: 'fc_1',
      type: 'function_call' as const,
      call_id: 'call_1',
      name: 'f',
      arguments: '{"a":1}',
    };
    const custom = {
      id: 'ctc_1',
      type: 'custom_tool_call' as const,
      call_id: 'call_1',
      name: 'f',
      input: 'x',
    };
    const unknown =
      'event: response.something_new\ndata: {"type":"response.something_new","output_index":3}\n\n';
    const text = `${sse([
      { type: 'response.created', response: response('in_progress') },
      { type: 'response.output_item.done', output_index: 0, item: message('Hi') },
      { type: 'response.output_item.done', output_index: 1, item: call },
      { type: 'response.output_item.done', output_index: 2, item: custom },
    ])}${unknown}${sse([{ type: 'response.completed', response: response('completed') }])}`;
    const [decoded] = await decode(text);
    expect(decoded).toEqual([
      { type: 'start', id: ID, model: MODEL },
      { type: 'text_start', index: 0 },
      { type: 'text_delta', index: 0, text: 'Hi' },
      { type: 'block_stop', index: 0 },
      { type: 'tool_call_start', index: 1, id: 'call_1', name: 'f' },
      { type: 'tool_call_delta', index: 1, argumentsDelta: '{"a":1}' },
      { type: 'block_stop', index: 1 },
      { type: 'tool_call_start', index: 2, id: 'call_1', name: 'f' },
      { type: 'tool_call_delta', index: 2, argumentsDelta: '{"input":"x"}' },
      { type: 'block_stop', index: 2 },
      { type: 'finish', finishReason: 'tool_calls' },
    ]);
  });

  it('keeps a hosted tool’s item as OpenAI’s own and names namespaced calls canonically', async () => {
    const search = {
      id: 'ws_1',
      type: 'web_search_call' as const,
      status: 'completed' as const,
      action: { type: 'search' as const, query: 'weather' },
    };
    const text = sse([
      { type: 'response.created', response: response('in_progress') },
      { type: 'response.output_item.added', output_index: 0, item: { ...search, status: 'in_progress' } },
      { type: 'response.web_search_call.searching', output_index: 0, item_id: 'ws_1' },
      { type: 'response.output_item.done', output_index: 0, item: search },
      {
        type: 'response.output_item.added',
        output_index: 1,
        item: { type: 'function_call', call_id: 'call_N', name: 'read', namespace: 'fs', arguments: '' },
      },
      { type: 'response.completed', response: response('completed') },
    ]);
    const [decoded] = await decode(text);
    expect(decoded?.slice(1)).toEqual([
      { type: 'reasoning_start', index: 0 },
      { type: 'reasoning_opaque', index: 0, opaque: { vendor: 'openai', data: search } },
      { type: 'block_stop', index: 0 },
      { type: 'tool_call_start', index: 1, id: 'call_N', name: 'fs__read' },
      { type: 'block_stop', index: 1 },
      { type: 'finish', finishReason: 'tool_calls' },
    ]);
  });
});
