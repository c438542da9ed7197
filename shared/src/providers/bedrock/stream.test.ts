import { describe, expect, it } from 'vitest';
import { encodeEventStreamJson } from '../../../test/providers/common/eventstream-encoder';
import { sequentialIds } from '../../../test/providers/common/test-fixtures';
import { concat, corrupt, everySplit, runTransform } from '../../../test/providers/common/test-streams';
import type { StreamEvent } from '../../canonical/types';
import { bedrockAdapter } from './adapter';
import { createConverseStreamDecoder } from './stream';

const model = 'anthropic.claude-3-5-sonnet-20240620-v1:0';
const decoder = () => createConverseStreamDecoder({ model, newId: sequentialIds() });
const event = (eventType: string, body: unknown) =>
  encodeEventStreamJson({ messageType: 'event', eventType, body });

// As ConverseStream sends it, including the random-length `p` padding Bedrock adds.
const toolStream = concat([
  event('messageStart', { p: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTU', role: 'assistant' }),
  event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Let me look' }, p: 'abcd' }),
  event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: ' that up — ✓.' }, p: 'abcdefgh' }),
  event('contentBlockStop', { contentBlockIndex: 0, p: 'abcdefghijklmnop' }),
  event('contentBlockStart', {
    contentBlockIndex: 1,
    p: 'abc',
    start: { toolUse: { name: 'get_weather', toolUseId: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q' } },
  }),
  event('contentBlockDelta', {
    contentBlockIndex: 1,
    delta: { toolUse: { input: '{"city": "Pa' } },
    p: 'ab',
  }),
  event('contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: 'ris"}' } }, p: 'abcdef' }),
  event('contentBlockStop', { contentBlockIndex: 1, p: 'abcdefghijklmnopqrstuvw' }),
  event('messageStop', { p: 'abcdefghijklm', stopReason: 'tool_use' }),
  event('metadata', {
    metrics: { latencyMs: 1203 },
    p: 'abcdefghijklmnopqrstuvwxyzABCDEF',
    usage: { inputTokens: 412, outputTokens: 67, totalTokens: 735, cacheReadInputTokens: 256 },
  }),
]);

const expectedTool: StreamEvent[] = [
  { type: 'start', id: 'msg_1', model },
  { type: 'text_start', index: 0 },
  { type: 'text_delta', index: 0, text: 'Let me look' },
  { type: 'text_delta', index: 0, text: ' that up — ✓.' },
  { type: 'block_stop', index: 0 },
  { type: 'tool_call_start', index: 1, id: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', name: 'get_weather' },
  { type: 'tool_call_delta', index: 1, argumentsDelta: '{"city": "Pa' },
  { type: 'tool_call_delta', index: 1, argumentsDelta: 'ris"}' },
  { type: 'block_stop', index: 1 },
  { type: 'finish', finishReason: 'tool_calls' },
  { type: 'usage', usage: { inputTokens: 668, outputTokens: 67, cachedInputTokens: 256 } },
];

describe('ConverseStream decoder', () => {
  it('maps text, streamed tool input, stop reason and usage', async () => {
    expect(await runTransform(decoder(), [toolStream])).toEqual(expectedTool);
  });

  it('gives identical events at every byte split and one byte per chunk', async () => {
    for (const chunks of everySplit(toolStream)) {
      expect(await runTransform(decoder(), chunks)).toEqual(expectedTool);
    }
  });

  it('gives argument-less tools {}', async () => {
    const bytes = concat([
      event('messageStart', { role: 'assistant' }),
      event('contentBlockStart', {
        contentBlockIndex: 0,
        start: { toolUse: { name: 'now', toolUseId: 'tooluse_1' } },
      }),
      event('contentBlockStop', { contentBlockIndex: 0 }),
      event('messageStop', { stopReason: 'tool_use' }),
    ]);
    expect(await runTransform(decoder(), [bytes])).toEqual([
      { type: 'start', id: 'msg_1', model },
      { type: 'tool_call_start', index: 0, id: 'tooluse_1', name: 'now' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{}' },
      { type: 'block_stop', index: 0 },
      { type: 'finish', finishReason: 'tool_calls' },
    ]);
  });

  it('turns an exception message into an error event and ignores the rest', async () => {
    const bytes = concat([
      event('messageStart', { role: 'assistant' }),
      event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Par' } }),
      encodeEventStreamJson({
        messageType: 'exception',
        exceptionType: 'throttlingException',
        body: { message: 'Too many tokens, please wait before trying again.' },
      }),
      event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'is' } }),
    ]);
    expect(await runTransform(decoder(), [bytes])).toEqual([
      { type: 'start', id: 'msg_1', model },
      { type: 'text_start', index: 0 },
      { type: 'text_delta', index: 0, text: 'Par' },
      { type: 'block_stop', index: 0 },
      {
        type: 'error',
        errorType: 'rate_limit_error',
        message: 'throttlingException: Too many tokens, please wait before trying again.',
      },
    ]);
  });

  it('turns a corrupted CRC into an error event after the intact messages', async () => {
    const view = new DataView(toolStream.buffer);
    const thirdStart = view.getUint32(0) + view.getUint32(view.getUint32(0));
    const bytes = corrupt(toolStream, thirdStart + 20); // inside the third message's headers
    const events = await runTransform(
      decoder(),
      Array.from(bytes, (b) => Uint8Array.of(b)),
    );
    expect(events).toEqual([
      { type: 'start', id: 'msg_1', model },
      { type: 'text_start', index: 0 },
      { type: 'text_delta', index: 0, text: 'Let me look' },
      { type: 'block_stop', index: 0 },
      {
        type: 'error',
        errorType: 'upstream_error',
        message: 'Bedrock stream is corrupt: event stream message checksum mismatch',
      },
    ]);
  });

  it('reports a stream cut mid-message', async () => {
    const events = await runTransform(decoder(), [toolStream.slice(0, toolStream.length - 10)]);
    expect(events.at(-1)).toEqual({
      type: 'error',
      errorType: 'upstream_error',
      message: expect.stringMatching(/^Bedrock stream is corrupt: event stream ended inside a message/),
    });
  });

  it('is what the adapter hands out', async () => {
    const events = await runTransform(bedrockAdapter.createStreamDecoder({ upstreamModel: model }), [
      toolStream,
    ]);
    expect(events[0]).toMatchObject({ type: 'start', model, id: expect.stringMatching(/^msg_/) });
    expect(events.slice(1)).toEqual(expectedTool.slice(1));
  });
});
