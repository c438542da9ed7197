import { APIError } from '@anthropic-ai/sdk';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { encodedEventNames } from '../../../test/wire/anthropic-messages/fixtures/event-names';
import {
  failingEvents,
  textAndToolCallEvents,
  usageFirstEvents,
} from '../../../test/wire/common/fixtures/canonical';
import { anthropicClient } from '../../../test/wire/common/fixtures/sdk-clients';
import { decodeChunks, encodeEvents, sampledSplits } from '../../../test/wire/common/test-utils';
import type { StreamEvent } from '../../canonical/types';
import { createMessagesStreamEncoder } from './stream-encoder';

const encode = (events: readonly StreamEvent[]) =>
  encodeEvents(createMessagesStreamEncoder('my-alias'), events);
const params = { model: 'my-alias', max_tokens: 100, messages: [] };

async function sdkEvents(bytes: Uint8Array): Promise<RawMessageStreamEvent[]> {
  const stream = await anthropicClient(bytes).messages.create({ ...params, stream: true });
  const events: RawMessageStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('anthropic-messages stream encoder', () => {
  it("accumulates in the SDK's MessageStream to the expected final message", async () => {
    const message = await anthropicClient(await encode(textAndToolCallEvents))
      .messages.stream(params)
      .finalMessage();
    expect(message).toMatchObject({
      id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
      type: 'message',
      role: 'assistant',
      model: 'my-alias',
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 344, output_tokens: 89, cache_read_input_tokens: 128 },
    });
    expect(message.content).toStrictEqual([
      { type: 'text', text: 'Let me check the weather — ☀️?' },
      {
        type: 'tool_use',
        id: 'toolu_01A09q90qw90lq917835lq9',
        name: 'get_weather',
        input: { location: 'San Francisco, CA', unit: 'celsius' },
      },
    ]);
  });

  it('emits the documented event sequence, each named after its type', async () => {
    const bytes = await encode(textAndToolCallEvents);
    const raw = await decodeChunks([bytes]);
    expect(raw.every((e) => e.event === JSON.parse(e.data).type)).toBe(true);
    // The text block and the tool-call block, each streamed in two pieces.
    expect(raw.map((e) => e.event)).toStrictEqual(encodedEventNames(2, 2));
    const events = await sdkEvents(bytes);
    expect(events[0]).toMatchObject({
      type: 'message_start',
      message: { content: [], usage: { input_tokens: 0 } },
    });
    expect(events[5]).toStrictEqual({
      type: 'content_block_start',
      index: 1,
      content_block: {
        type: 'tool_use',
        id: 'toolu_01A09q90qw90lq917835lq9',
        name: 'get_weather',
        input: {},
      },
    });
    expect(events[6]).toMatchObject({
      index: 1,
      delta: { type: 'input_json_delta', partial_json: '{"location": "San' },
    });
    expect(events.at(-2)).toStrictEqual({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { input_tokens: 344, output_tokens: 89, cache_read_input_tokens: 128 },
    });
  });

  it('puts early usage into message_start and gives the same final message', async () => {
    const bytes = await encode(usageFirstEvents);
    const events = await sdkEvents(bytes);
    expect(events[0]).toMatchObject({
      message: { usage: { input_tokens: 344, cache_read_input_tokens: 128 } },
    });
    const late = await anthropicClient(await encode(textAndToolCallEvents))
      .messages.stream(params)
      .finalMessage();
    const early = await anthropicClient(bytes).messages.stream(params).finalMessage();
    expect(early).toStrictEqual(late);
  });

  it('decodes to the same events through shared/src/sse however the bytes are split', async () => {
    const bytes = await encode(textAndToolCallEvents);
    const whole = await decodeChunks([bytes]);
    for (const split of sampledSplits(bytes, 3)) expect(await decodeChunks(split)).toStrictEqual(whole);
  });

  it('ends with an error event the SDK throws as an APIError', async () => {
    const bytes = await encode(failingEvents);
    const raw = await decodeChunks([bytes]);
    expect(raw.at(-1)).toStrictEqual({
      event: 'error',
      data: JSON.stringify({
        type: 'error',
        error: { type: 'upstream_error', message: 'Upstream provider error' },
      }),
    });
    const error = await anthropicClient(bytes)
      .messages.stream(params)
      .finalMessage()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).message).toContain('Upstream provider error');
  });

  it('renders a canonical tool call with no argument deltas as input {}', async () => {
    const events: StreamEvent[] = [
      { type: 'tool_call_start', index: 0, id: 'call_9', name: 'now' },
      { type: 'block_stop', index: 0 },
      { type: 'finish', finishReason: 'tool_calls' },
    ];
    const message = await anthropicClient(await encode(events))
      .messages.stream(params)
      .finalMessage();
    expect(message.content).toStrictEqual([{ type: 'tool_use', id: 'toolu_9', name: 'now', input: {} }]);
    expect(message.id).toMatch(/^msg_[0-9a-f]{32}$/);
  });
});
