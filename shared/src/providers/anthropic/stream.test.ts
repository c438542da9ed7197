import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { decodeAtEverySplit } from '../../../test/providers/common/test-streams';
import type { StreamEvent } from '../../canonical/types';
import { anthropicAdapter } from './adapter';

/** Byte for byte as POST /v1/messages streams it (anthropic-version 2023-06-01). */
const wire = `event: message_start
data: {"type":"message_start","message":{"id":"msg_014p7gG3wDgGV9EUtLvnow3U","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":472,"cache_creation_input_tokens":0,"cache_read_input_tokens":1024,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0},"output_tokens":2,"service_tier":"standard"}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

event: ping
data: {"type": "ping"}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Okay, let"}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"'s check — météo ☀"}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: content_block_start
data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_01T1x1fJ34qAmk2tNTrN7Up6","name":"get_weather","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\\"location\\":"}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":" \\"Paris, Fr"}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"ance\\"}"}}

event: content_block_stop
data: {"type":"content_block_stop","index":1}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":89}}

event: message_stop
data: {"type":"message_stop"}

`;

const expected: StreamEvent[] = [
  { type: 'start', id: 'msg_014p7gG3wDgGV9EUtLvnow3U', model: 'claude-sonnet-4-5-20250929' },
  // message_start's usage, reported at once so a client leaving early is still charged input.
  { type: 'usage', usage: { inputTokens: 1496, outputTokens: 2, cachedInputTokens: 1024 } },
  { type: 'text_start', index: 0 },
  { type: 'text_delta', index: 0, text: 'Okay, let' },
  { type: 'text_delta', index: 0, text: "'s check — météo ☀" },
  { type: 'block_stop', index: 0 },
  { type: 'tool_call_start', index: 1, id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather' },
  { type: 'tool_call_delta', index: 1, argumentsDelta: '{"location":' },
  { type: 'tool_call_delta', index: 1, argumentsDelta: ' "Paris, Fr' },
  { type: 'tool_call_delta', index: 1, argumentsDelta: 'ance"}' },
  { type: 'block_stop', index: 1 },
  { type: 'finish', finishReason: 'tool_calls' },
  { type: 'usage', usage: { inputTokens: 1496, outputTokens: 89, cachedInputTokens: 1024 } },
];

function sse(events: unknown[]): string {
  return events
    .map((e) => {
      const type = typeof e === 'object' && e !== null && 'type' in e ? String(e.type) : 'unknown';
      return `event: ${type}\ndata: ${JSON.stringify(e)}\n\n`;
    })
    .join('');
}

/** Only the main fixture runs at every split point; the rest whole and byte by byte. */
const decode = (text: string) =>
  decodeAtEverySplit(() => anthropicAdapter.createStreamDecoder(), text, 'whole-and-bytewise');

const usage = {
  cache_creation_input_tokens: null,
  cache_read_input_tokens: null,
  input_tokens: null,
  output_tokens_details: null,
  server_tool_use: null,
};

/** The SDK's (newer API version's) event shapes: a thinking block first, cumulative delta usage. */
const sdkEvents = [
  {
    type: 'message_start',
    message: {
      id: 'msg_02',
      type: 'message',
      role: 'assistant',
      model: 'claude-opus-4-5',
      container: null,
      diagnostics: null,
      stop_details: null,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        cache_creation: null,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        inference_geo: null,
        input_tokens: 20,
        output_tokens: 1,
        output_tokens_details: null,
        server_tool_use: null,
        service_tier: 'standard',
        speed: null,
      },
    },
  },
  { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Simple.' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqQBCgIYAh' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '', citations: null } },
  { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hi!' } },
  { type: 'content_block_stop', index: 1 },
  {
    type: 'message_delta',
    delta: { container: null, stop_details: null, stop_reason: 'end_turn', stop_sequence: null },
    usage: { ...usage, input_tokens: 25, cache_read_input_tokens: 5, output_tokens: 12 },
  },
  { type: 'message_stop' },
] satisfies RawMessageStreamEvent[];

describe('Anthropic stream decoder', () => {
  it('decodes a full event sequence identically at every split', async () => {
    const results = await decodeAtEverySplit(() => anthropicAdapter.createStreamDecoder(), wire);
    expect(results).toHaveLength(1);
    expect(results[0]).toEqual(expected);
  }, 60_000);

  it('streams thinking as reasoning, then gives the whole signed block, and prefers cumulative usage', async () => {
    const [events] = await decode(sse(sdkEvents));
    const thinking = { type: 'thinking', thinking: 'Simple.', signature: 'EqQBCgIYAh' };
    expect(events).toEqual([
      { type: 'start', id: 'msg_02', model: 'claude-opus-4-5' },
      { type: 'usage', usage: { inputTokens: 20, outputTokens: 1, cachedInputTokens: 0 } },
      { type: 'reasoning_start', index: 0 },
      { type: 'reasoning_delta', index: 0, text: 'Simple.' },
      { type: 'reasoning_opaque', index: 0, opaque: { vendor: 'anthropic', data: thinking } },
      { type: 'block_stop', index: 0 },
      { type: 'text_start', index: 1 },
      { type: 'text_delta', index: 1, text: 'Hi!' },
      { type: 'block_stop', index: 1 },
      { type: 'finish', finishReason: 'stop' },
      { type: 'usage', usage: { inputTokens: 30, outputTokens: 12, cachedInputTokens: 5 } },
    ]);
  });

  it('assembles redacted thinking and a server tool call with its input', async () => {
    const events = [
      sdkEvents[0],
      { type: 'content_block_start', index: 0, content_block: { type: 'redacted_thinking', data: 'EmwK' } },
      { type: 'content_block_stop', index: 0 },
      {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} },
      },
      {
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'input_json_delta', partial_json: '{"query":' },
      },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '"x"}' } },
      { type: 'content_block_stop', index: 1 },
    ];
    const [decoded] = await decode(sse(events as RawMessageStreamEvent[]));
    expect(decoded?.filter((event) => event.type === 'reasoning_opaque')).toEqual([
      {
        type: 'reasoning_opaque',
        index: 0,
        opaque: { vendor: 'anthropic', data: { type: 'redacted_thinking', data: 'EmwK' } },
      },
      {
        type: 'reasoning_opaque',
        index: 1,
        opaque: {
          vendor: 'anthropic',
          data: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } },
        },
      },
    ]);
  });

  it('turns an error event into an error and ignores anything after it', async () => {
    const text = `${sse(sdkEvents.slice(0, 1))}event: error\ndata: {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}\n\n${sse(sdkEvents.slice(5))}`;
    const [events] = await decode(text);
    expect(events).toEqual([
      { type: 'start', id: 'msg_02', model: 'claude-opus-4-5' },
      { type: 'usage', usage: { inputTokens: 20, outputTokens: 1, cachedInputTokens: 0 } },
      { type: 'error', errorType: 'overloaded_error', message: 'Overloaded' },
    ]);
  });

  it('reports a stream cut off before message_delta', async () => {
    const [events] = await decode(sse(sdkEvents.slice(0, 7)));
    expect(events?.at(-1)).toEqual({
      type: 'error',
      errorType: 'upstream_error',
      message: 'Upstream stream ended before completion',
    });
  });

  it('accepts a stream that ends after message_delta without message_stop', async () => {
    const [events] = await decode(sse(sdkEvents.slice(0, 9)));
    expect(events?.at(-1)?.type).toBe('usage');
  });

  it('reports unreadable event data', async () => {
    const [events] = await decode('event: message_start\ndata: {"type":\n\n');
    expect(events).toEqual([
      { type: 'error', errorType: 'upstream_error', message: 'Upstream sent an unreadable stream event' },
    ]);
  });
});
