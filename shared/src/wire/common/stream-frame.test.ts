import { describe, expect, it } from 'vitest';
import { encodeEvents, utf8 } from '../../../test/wire/common/test-utils';
import type { StreamEvent } from '../../canonical/types';
import { type BlockEvent, createFramedEncoder, type StreamEnd, type StreamFailure } from './stream-frame';

type Call = ['open', string] | ['block', BlockEvent] | ['finish', StreamEnd] | ['fail', StreamFailure];

/** Runs events through the frame with a writer that records calls (and writes one byte each). */
async function frame(events: StreamEvent[]): Promise<Call[]> {
  const calls: Call[] = [];
  const encoder = createFramedEncoder((out) => ({
    open: (start) => {
      calls.push(['open', start.id]);
      out.event({ data: 'open' });
    },
    block: (event) => calls.push(['block', event]),
    finish: (end) => calls.push(['finish', end]),
    fail: (failure) => calls.push(['fail', failure]),
  }));
  expect(utf8(await encodeEvents(encoder, events))).toBe('data: open\n\n');
  return calls;
}

const types = (calls: Call[]) => calls.map((c) => (c[0] === 'block' ? c[1].type : c[0]));

describe('stream frame', () => {
  it('numbers blocks contiguously and tool calls among themselves, whatever the upstream indices', async () => {
    const calls = await frame([
      { type: 'start', id: 'up', model: 'x' },
      { type: 'tool_call_start', index: 3, id: 'a', name: 'f' },
      { type: 'block_stop', index: 3 },
      { type: 'text_start', index: 7 },
      { type: 'block_stop', index: 7 },
      { type: 'tool_call_start', index: 9, id: 'b', name: 'g' },
      { type: 'block_stop', index: 9 },
      { type: 'finish', finishReason: 'tool_calls' },
    ]);
    const starts = calls.flatMap((c) => (c[0] === 'block' && c[1].type.endsWith('_start') ? [c[1]] : []));
    expect(starts).toStrictEqual([
      { type: 'tool_call_start', block: 0, tool: 0, id: 'a', name: 'f' },
      { type: 'text_start', block: 1 },
      { type: 'tool_call_start', block: 2, tool: 1, id: 'b', name: 'g' },
    ]);
    expect(calls[0]).toStrictEqual(['open', 'up']);
  });

  it('starts a text block for a bare delta and stops the open block before a new one', async () => {
    const calls = await frame([
      { type: 'text_delta', index: 0, text: 'a' },
      { type: 'tool_call_start', index: 1, id: 't', name: 'f' },
      { type: 'tool_call_delta', index: 1, argumentsDelta: '{}' },
      { type: 'tool_call_delta', index: 5, argumentsDelta: 'lost' },
      { type: 'block_stop', index: 4 },
      { type: 'finish', finishReason: 'stop' },
    ]);
    expect(types(calls)).toStrictEqual([
      'open',
      'text_start',
      'text_delta',
      'block_stop',
      'tool_call_start',
      'tool_call_delta',
      'block_stop',
      'finish',
    ]);
    expect(calls.at(-1)).toStrictEqual([
      'finish',
      {
        finishReason: 'stop',
        usage: null,
        content: [
          { type: 'text', text: 'a' },
          { type: 'tool_call', id: 't', name: 'f', arguments: '{}' },
        ],
      },
    ]);
  });

  it('drops empty deltas and duplicate starts', async () => {
    const calls = await frame([
      { type: 'text_start', index: 0 },
      { type: 'text_start', index: 0 },
      { type: 'text_delta', index: 0, text: '' },
      { type: 'finish', finishReason: 'stop' },
    ]);
    expect(types(calls)).toStrictEqual(['open', 'text_start', 'block_stop', 'finish']);
  });

  it('merges usage reports and waits for the end of input to finish', async () => {
    const calls = await frame([
      { type: 'usage', usage: { inputTokens: 10, outputTokens: 0, cachedInputTokens: 4 } },
      { type: 'finish', finishReason: 'stop' },
      { type: 'usage', usage: { inputTokens: 0, outputTokens: 7 } },
    ]);
    expect(calls.at(-1)).toStrictEqual([
      'finish',
      {
        finishReason: 'stop',
        usage: { inputTokens: 10, outputTokens: 7, cachedInputTokens: 4 },
        content: [],
      },
    ]);
  });

  it('fails once on error, with the content so far, and ignores everything after', async () => {
    const calls = await frame([
      { type: 'text_delta', index: 0, text: 'a' },
      { type: 'error', message: 'boom', errorType: 'upstream_error' },
      { type: 'text_delta', index: 0, text: 'b' },
      { type: 'finish', finishReason: 'stop' },
    ]);
    expect(types(calls)).toStrictEqual(['open', 'text_start', 'text_delta', 'fail']);
    expect(calls.at(-1)).toStrictEqual([
      'fail',
      { message: 'boom', errorType: 'upstream_error', content: [{ type: 'text', text: 'a' }] },
    ]);
  });

  it('fails a stream that ends without finish, and opens even an empty one', async () => {
    expect(types(await frame([]))).toStrictEqual(['open', 'fail']);
  });
});
