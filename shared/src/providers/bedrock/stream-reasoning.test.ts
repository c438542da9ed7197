import { describe, expect, it } from 'vitest';
import { encodeEventStreamJson } from '../../../test/providers/common/eventstream-encoder';
import { sequentialIds } from '../../../test/providers/common/test-fixtures';
import { concat, everySplit, runTransform } from '../../../test/providers/common/test-streams';
import type { StreamEvent } from '../../canonical/types';
import { createConverseStreamDecoder } from './stream';

const model = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const decoder = () => createConverseStreamDecoder({ model, newId: sequentialIds() });
const event = (eventType: string, body: unknown) =>
  encodeEventStreamJson({ messageType: 'event', eventType, body });
const reasoningDelta = (contentBlockIndex: number, reasoningContent: unknown) =>
  event('contentBlockDelta', { contentBlockIndex, delta: { reasoningContent }, p: 'abcdefg' });

// Redacted content may come in several deltas, each its own padded base64.
const redactedParts = [btoa('encrypted-'), btoa('reasoning.')];
const redactedWhole = btoa('encrypted-reasoning.');

/** Thinking (text in two deltas, then its signature in two), text, a tool call, then redacted thinking. */
const thinkingStream = concat([
  event('messageStart', { p: 'abcdefghijklmnopqrstuvwxyzABCDEF', role: 'assistant' }),
  reasoningDelta(0, { text: 'La météo ' }),
  reasoningDelta(0, { text: 'est demandée ✓.' }),
  reasoningDelta(0, { signature: 'EqQBCkgIARABGAIiQL2x' }),
  reasoningDelta(0, { signature: 'Rk9PYmFy==' }),
  event('contentBlockStop', { contentBlockIndex: 0, p: 'abcd' }),
  event('contentBlockDelta', { contentBlockIndex: 1, delta: { text: 'Checking.' }, p: 'ab' }),
  event('contentBlockStop', { contentBlockIndex: 1, p: 'abcdefghij' }),
  event('contentBlockStart', {
    contentBlockIndex: 2,
    start: { toolUse: { name: 'get_weather', toolUseId: 'tooluse_w1' } },
    p: 'abc',
  }),
  event('contentBlockDelta', { contentBlockIndex: 2, delta: { toolUse: { input: '{"city":"Paris"}' } } }),
  event('contentBlockStop', { contentBlockIndex: 2 }),
  reasoningDelta(3, { redactedContent: redactedParts[0] }),
  reasoningDelta(3, { redactedContent: redactedParts[1] }),
  event('contentBlockStop', { contentBlockIndex: 3 }),
  event('messageStop', { stopReason: 'tool_use', p: 'abcdefghijklm' }),
  event('metadata', {
    metrics: { latencyMs: 2210 },
    usage: {
      inputTokens: 20,
      outputTokens: 90,
      totalTokens: 3610,
      cacheReadInputTokens: 3000,
      cacheWriteInputTokens: 500,
      cacheDetails: [{ ttl: '1h', inputTokens: 500 }],
    },
  }),
]);

const signedThinking = {
  reasoningContent: {
    reasoningText: { text: 'La météo est demandée ✓.', signature: 'EqQBCkgIARABGAIiQL2xRk9PYmFy==' },
  },
};

const expectedThinking: StreamEvent[] = [
  { type: 'start', id: 'msg_1', model },
  { type: 'reasoning_start', index: 0 },
  { type: 'reasoning_delta', index: 0, text: 'La météo ' },
  { type: 'reasoning_delta', index: 0, text: 'est demandée ✓.' },
  { type: 'reasoning_opaque', index: 0, opaque: { vendor: 'bedrock', data: signedThinking } },
  { type: 'block_stop', index: 0 },
  { type: 'text_start', index: 1 },
  { type: 'text_delta', index: 1, text: 'Checking.' },
  { type: 'block_stop', index: 1 },
  { type: 'tool_call_start', index: 2, id: 'tooluse_w1', name: 'get_weather' },
  { type: 'tool_call_delta', index: 2, argumentsDelta: '{"city":"Paris"}' },
  { type: 'block_stop', index: 2 },
  { type: 'reasoning_start', index: 3 },
  {
    type: 'reasoning_opaque',
    index: 3,
    opaque: { vendor: 'bedrock', data: { reasoningContent: { redactedContent: redactedWhole } } },
  },
  { type: 'block_stop', index: 3 },
  { type: 'finish', finishReason: 'tool_calls' },
  {
    type: 'usage',
    usage: {
      inputTokens: 3520,
      outputTokens: 90,
      cachedInputTokens: 3000,
      cacheWriteTokens: 500,
      cacheWrite1hTokens: 500,
    },
  },
];

describe('ConverseStream reasoning', () => {
  it('streams reasoning text, then the assembled block before its block_stop', async () => {
    expect(await runTransform(decoder(), [thinkingStream])).toEqual(expectedThinking);
  });

  it('gives identical events at every byte split and one byte per chunk', async () => {
    for (const chunks of everySplit(thinkingStream)) {
      expect(await runTransform(decoder(), chunks)).toEqual(expectedThinking);
    }
  });

  it('opens a block for a signature-only reasoning block (no text shown)', async () => {
    const bytes = concat([
      event('messageStart', { role: 'assistant' }),
      reasoningDelta(0, { signature: 'c2lnbmVk' }),
      event('contentBlockStop', { contentBlockIndex: 0 }),
      event('contentBlockDelta', { contentBlockIndex: 1, delta: { text: 'Done.' } }),
      event('contentBlockStop', { contentBlockIndex: 1 }),
      event('messageStop', { stopReason: 'end_turn' }),
    ]);
    const data = { reasoningContent: { reasoningText: { text: '', signature: 'c2lnbmVk' } } };
    expect(await runTransform(decoder(), [bytes])).toEqual([
      { type: 'start', id: 'msg_1', model },
      { type: 'reasoning_start', index: 0 },
      { type: 'reasoning_opaque', index: 0, opaque: { vendor: 'bedrock', data } },
      { type: 'block_stop', index: 0 },
      { type: 'text_start', index: 1 },
      { type: 'text_delta', index: 1, text: 'Done.' },
      { type: 'block_stop', index: 1 },
      { type: 'finish', finishReason: 'stop' },
    ]);
  });

  it('gives no reasoning_opaque for a block the stream broke off inside', async () => {
    const bytes = concat([
      event('messageStart', { role: 'assistant' }),
      reasoningDelta(0, { text: 'Half a thought' }),
      encodeEventStreamJson({
        messageType: 'exception',
        exceptionType: 'modelStreamErrorException',
        body: { message: 'The model stream failed.' },
      }),
    ]);
    expect(await runTransform(decoder(), [bytes])).toEqual([
      { type: 'start', id: 'msg_1', model },
      { type: 'reasoning_start', index: 0 },
      { type: 'reasoning_delta', index: 0, text: 'Half a thought' },
      { type: 'block_stop', index: 0 },
      {
        type: 'error',
        errorType: 'api_error',
        message: 'modelStreamErrorException: The model stream failed.',
      },
    ]);
    const cut = await runTransform(decoder(), [bytes.slice(0, bytes.length - 20)]);
    expect(cut.some((e) => e.type === 'reasoning_opaque')).toBe(false);
    expect(cut.at(-1)).toMatchObject({ type: 'error' });
  });
});
