import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { decodeAtEverySplit } from '../../../test/providers/common/test-streams';
import type { StreamEvent } from '../../canonical/types';
import { openAiAdapter } from './adapter';

const ID = 'chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT';
const MODEL = 'gpt-4o-2024-08-06';

/** What every chunk of one api.openai.com stream repeats. */
const head = {
  id: ID,
  object: 'chat.completion.chunk',
  created: 1741569952,
  model: MODEL,
  service_tier: 'default',
  system_fingerprint: 'fp_eb9dce56a8',
} as const;

/** A chunk as api.openai.com sends it with include_usage on (usage: null until the last). */
function chunk(
  delta: ChatCompletionChunk.Choice.Delta,
  finish: ChatCompletionChunk.Choice['finish_reason'] = null,
) {
  return {
    ...head,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    usage: null,
  } satisfies ChatCompletionChunk;
}

function argsChunk(index: number, fragment: string) {
  return chunk({ tool_calls: [{ index, function: { arguments: fragment } }] });
}

const usageChunk = {
  ...head,
  choices: [],
  usage: {
    prompt_tokens: 2117,
    completion_tokens: 58,
    total_tokens: 2175,
    prompt_tokens_details: { cached_tokens: 1920, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  },
} satisfies ChatCompletionChunk;

const chunks: ChatCompletionChunk[] = [
  chunk({ role: 'assistant', content: '', refusal: null }),
  chunk({ content: 'Je vérifie ' }),
  chunk({ content: 'les deux villes 🌦' }),
  chunk({
    tool_calls: [
      {
        index: 0,
        id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA',
        type: 'function',
        function: { name: 'get_weather', arguments: '' },
      },
    ],
  }),
  argsChunk(0, '{"lo'),
  argsChunk(0, 'cation'),
  argsChunk(0, '": "Paris'),
  argsChunk(0, ', France"}'),
  chunk({
    tool_calls: [
      {
        index: 1,
        id: 'call_ABCD1234efgh5678ijkl9012',
        type: 'function',
        function: { name: 'get_time', arguments: '' },
      },
    ],
  }),
  argsChunk(1, '{"tz'),
  argsChunk(1, '": "Europe/Rome"'),
  argsChunk(1, '}'),
  chunk({}, 'tool_calls'),
  usageChunk,
];

function sse(events: unknown[]): string {
  return events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');
}

const wire = `${sse(chunks)}data: [DONE]\n\n`;

const expected: StreamEvent[] = [
  { type: 'start', id: ID, model: MODEL },
  { type: 'text_start', index: 0 },
  { type: 'text_delta', index: 0, text: 'Je vérifie ' },
  { type: 'text_delta', index: 0, text: 'les deux villes 🌦' },
  { type: 'block_stop', index: 0 },
  { type: 'tool_call_start', index: 1, id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA', name: 'get_weather' },
  { type: 'tool_call_delta', index: 1, argumentsDelta: '{"lo' },
  { type: 'tool_call_delta', index: 1, argumentsDelta: 'cation' },
  { type: 'tool_call_delta', index: 1, argumentsDelta: '": "Paris' },
  { type: 'tool_call_delta', index: 1, argumentsDelta: ', France"}' },
  { type: 'block_stop', index: 1 },
  { type: 'tool_call_start', index: 2, id: 'call_ABCD1234efgh5678ijkl9012', name: 'get_time' },
  { type: 'tool_call_delta', index: 2, argumentsDelta: '{"tz' },
  { type: 'tool_call_delta', index: 2, argumentsDelta: '": "Europe/Rome"' },
  { type: 'tool_call_delta', index: 2, argumentsDelta: '}' },
  { type: 'block_stop', index: 2 },
  { type: 'finish', finishReason: 'tool_calls' },
  { type: 'usage', usage: { inputTokens: 2117, outputTokens: 58, cachedInputTokens: 1920 } },
];

/** Only the main fixture runs at every split point; the rest whole and byte by byte. */
const decode = (text: string) =>
  decodeAtEverySplit(() => openAiAdapter.createStreamDecoder(), text, 'whole-and-bytewise');

describe('OpenAI stream decoder', () => {
  it('decodes text, two parallel tool calls, finish and usage identically at every split', async () => {
    const results = await decodeAtEverySplit(() => openAiAdapter.createStreamDecoder(), wire);
    expect(results).toHaveLength(1);
    expect(results[0]).toEqual(expected);
  }, 60_000);

  it('decodes a plain text stream with CRLF line endings', async () => {
    const text = [
      chunk({ role: 'assistant', content: '' }),
      chunk({ content: 'Hi' }),
      chunk({}, 'stop'),
      usageChunk,
    ]
      .map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`)
      .join('');
    const [events] = await decode(`${text}data: [DONE]\r\n\r\n`);
    expect(events).toEqual([
      { type: 'start', id: ID, model: MODEL },
      { type: 'text_start', index: 0 },
      { type: 'text_delta', index: 0, text: 'Hi' },
      { type: 'block_stop', index: 0 },
      { type: 'finish', finishReason: 'stop' },
      { type: 'usage', usage: { inputTokens: 2117, outputTokens: 58, cachedInputTokens: 1920 } },
    ]);
  });

  it('turns an error chunk into an error event and stops', async () => {
    const error = {
      error: {
        message: 'The server had an error while processing your request.',
        type: 'server_error',
        param: null,
        code: null,
      },
    };
    const text = `data: ${JSON.stringify(chunk({ content: 'Hel' }))}\n\ndata: ${JSON.stringify(error)}\n\ndata: ${JSON.stringify(chunk({ content: 'lo' }))}\n\n`;
    const [events] = await decode(text);
    expect(events).toEqual([
      { type: 'start', id: ID, model: MODEL },
      { type: 'text_start', index: 0 },
      { type: 'text_delta', index: 0, text: 'Hel' },
      {
        type: 'error',
        errorType: 'server_error',
        message: 'The server had an error while processing your request.',
      },
    ]);
  });

  it('reports a stream cut off before finish_reason', async () => {
    const [events] = await decode(`data: ${JSON.stringify(chunk({ content: 'Hel' }))}\n\n`);
    expect(events?.at(-1)).toEqual({
      type: 'error',
      errorType: 'upstream_error',
      message: 'Upstream stream ended before completion',
    });
  });

  it('reports an unreadable chunk', async () => {
    const [events] = await decode('data: {"id":\n\n');
    expect(events).toEqual([
      { type: 'error', errorType: 'upstream_error', message: 'Upstream sent an unreadable stream chunk' },
    ]);
  });

  it('starts at the first real chunk after Azure’s prompt-filter chunk', async () => {
    const azureFilter = {
      choices: [],
      created: 0,
      id: '',
      model: '',
      object: '',
      prompt_filter_results: [
        { prompt_index: 0, content_filter_results: { hate: { filtered: false, severity: 'safe' } } },
      ],
    };
    const body = sse([
      azureFilter,
      chunk({ role: 'assistant', content: '' }),
      chunk({ content: 'Hi' }),
      chunk({}, 'stop'),
    ]);
    const [events] = await decode(`${body}data: [DONE]\n\n`);
    expect(events?.[0]).toEqual({ type: 'start', id: ID, model: MODEL });
    expect(events?.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
  });

  it('separates whole tool calls from servers that send no index or reuse index 0', async () => {
    const base = chunk({});
    const whole = (id: string, index?: number) => ({
      ...base,
      choices: [
        {
          index: 0,
          delta: { tool_calls: [{ index, id, type: 'function', function: { name: 'f', arguments: '{}' } }] },
          finish_reason: null,
        },
      ],
    });
    const body = sse([
      whole('call_a'),
      whole('call_b'),
      whole('call_c', 0),
      whole('call_d', 0),
      chunk({}, 'tool_calls'),
    ]);
    const [events] = await decode(`${body}data: [DONE]\n\n`);
    const starts = events
      ?.filter((e) => e.type === 'tool_call_start')
      .map((e) => e.type === 'tool_call_start' && e.id);
    expect(starts).toEqual(['call_a', 'call_b', 'call_c', 'call_d']);
  });

  it('closes blocks and emits a finish when [DONE] arrives without finish_reason', async () => {
    const [events] = await decode(`data: ${JSON.stringify(chunk({ content: 'Hi' }))}\n\ndata: [DONE]\n\n`);
    expect(events?.slice(-2)).toEqual([
      { type: 'block_stop', index: 0 },
      { type: 'finish', finishReason: 'stop' },
    ]);
  });

  it('emits usage once when a server repeats it on every chunk', async () => {
    const withUsage = (c: ReturnType<typeof chunk>, completion: number) => ({
      ...c,
      usage: { prompt_tokens: 10, completion_tokens: completion, total_tokens: 10 + completion },
    });
    const body = sse([withUsage(chunk({ content: 'a' }), 1), withUsage(chunk({}, 'stop'), 2)]);
    const [events] = await decode(`${body}data: [DONE]\n\n`);
    expect(events?.filter((e) => e.type === 'usage')).toEqual([
      { type: 'usage', usage: { inputTokens: 10, outputTokens: 2 } },
    ]);
  });

  it('streams a compatible server’s reasoning_content as a reasoning block before the text', async () => {
    const reasoning = (text: string) =>
      chunk({ reasoning_content: text } as ChatCompletionChunk.Choice.Delta);
    const body = sse([
      reasoning('Six '),
      reasoning('times seven.'),
      chunk({ content: '42' }),
      chunk({}, 'stop'),
    ]);
    const [events] = await decode(`${body}data: [DONE]\n\n`);
    expect(events).toEqual([
      { type: 'start', id: ID, model: MODEL },
      { type: 'reasoning_start', index: 0 },
      { type: 'reasoning_delta', index: 0, text: 'Six ' },
      { type: 'reasoning_delta', index: 0, text: 'times seven.' },
      { type: 'block_stop', index: 0 },
      { type: 'text_start', index: 1 },
      { type: 'text_delta', index: 1, text: '42' },
      { type: 'block_stop', index: 1 },
      { type: 'finish', finishReason: 'stop' },
    ]);
  });

  it('reports reasoning tokens from the final usage chunk', async () => {
    const details = { ...usageChunk.usage.completion_tokens_details, reasoning_tokens: 40 };
    const withReasoning = {
      ...usageChunk,
      usage: { ...usageChunk.usage, completion_tokens_details: details },
    };
    const [events] = await decode(`${sse([chunk({ content: 'a' }, 'stop'), withReasoning])}data: [DONE]\n\n`);
    expect(events?.at(-1)).toEqual({
      type: 'usage',
      usage: { inputTokens: 2117, outputTokens: 58, cachedInputTokens: 1920, reasoningTokens: 40 },
    });
  });
});
