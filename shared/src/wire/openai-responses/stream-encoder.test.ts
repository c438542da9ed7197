import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import {
  failingEvents,
  textAndToolCallEvents,
  toolCallArguments,
  usageFirstEvents,
} from '../../../test/wire/common/fixtures/canonical';
import { openAiClient } from '../../../test/wire/common/fixtures/sdk-clients';
import { decodeChunks, encodeEvents, sampledSplits } from '../../../test/wire/common/test-utils';
import type { StreamEvent } from '../../canonical/types';
import { createResponsesStreamEncoder } from './stream-encoder';

const encode = (events: readonly StreamEvent[]) =>
  encodeEvents(createResponsesStreamEncoder('my-alias'), events);
const params = { model: 'my-alias', input: 'x' };

async function sdkEvents(bytes: Uint8Array): Promise<ResponseStreamEvent[]> {
  const stream = await openAiClient(bytes).responses.create({ ...params, stream: true });
  const events: ResponseStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const expectedOutput = [
  {
    type: 'message',
    id: 'msg_01XFDUDYJgAACzvnptvVoYEL_0',
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text: 'Let me check the weather — ☀️?', annotations: [] }],
  },
  {
    type: 'function_call',
    id: 'fc_01A09q90qw90lq917835lq9',
    call_id: 'call_01A09q90qw90lq917835lq9',
    name: 'get_weather',
    arguments: toolCallArguments,
    status: 'completed',
  },
];

describe('openai-responses stream encoder', () => {
  it("accumulates in the SDK's ResponseStream to the expected final response", async () => {
    const stream = openAiClient(await encode(textAndToolCallEvents)).responses.stream(params);
    const deltas: string[] = [];
    stream.on('response.output_text.delta', (event) => deltas.push(event.snapshot));
    const response = await stream.finalResponse();
    expect(deltas).toStrictEqual(['Let me check ', 'Let me check the weather — ☀️?']);
    expect(response).toMatchObject({
      id: 'resp_01XFDUDYJgAACzvnptvVoYEL',
      object: 'response',
      status: 'completed',
      model: 'my-alias',
      output_text: 'Let me check the weather — ☀️?',
      usage: {
        input_tokens: 472,
        input_tokens_details: { cached_tokens: 128 },
        output_tokens: 89,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 561,
      },
    });
    // The SDK adds parsed / parsed_arguments (null without auto-parseable params) to each item.
    expect(response.output).toMatchObject(expectedOutput);
  });

  it('emits the documented sequence with increasing sequence numbers and consistent item ids', async () => {
    const events = await sdkEvents(await encode(textAndToolCallEvents));
    expect(events.map((e) => e.type)).toStrictEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((e) => e.sequence_number)).toStrictEqual(events.map((_, i) => i));
    const argDeltas = events.filter((e) => e.type === 'response.function_call_arguments.delta');
    expect(argDeltas.every((e) => e.item_id === 'fc_01A09q90qw90lq917835lq9' && e.output_index === 1)).toBe(
      true,
    );
    expect(events[0]).toMatchObject({ response: { status: 'in_progress', output: [], usage: null } });
    const completed = events.at(-1);
    expect(completed?.type === 'response.completed' && completed.response.output).toStrictEqual(
      expectedOutput,
    );
  });

  it('gives the same events when usage arrives before finish', async () => {
    const strip = (events: ResponseStreamEvent[]) =>
      JSON.stringify(events).replace(/"(created|completed)_at":\d+/g, '');
    const late = await sdkEvents(await encode(textAndToolCallEvents));
    const early = await sdkEvents(await encode(usageFirstEvents));
    expect(strip(early)).toBe(strip(late));
  });

  it('ends a max-tokens stream with response.incomplete', async () => {
    const events: StreamEvent[] = [
      ...textAndToolCallEvents.slice(0, 5),
      { type: 'finish', finishReason: 'length' },
    ];
    const response = await openAiClient(await encode(events))
      .responses.stream(params)
      .finalResponse();
    expect(response).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
    });
    expect(response.output[0]).toMatchObject({ status: 'incomplete' });
  });

  it('decodes to the same events through shared/src/sse however the bytes are split', async () => {
    const bytes = await encode(textAndToolCallEvents);
    const whole = await decodeChunks([bytes]);
    expect(whole.every((e) => e.event === JSON.parse(e.data).type)).toBe(true);
    for (const split of sampledSplits(bytes, 17)) expect(await decodeChunks(split)).toStrictEqual(whole);
  });

  it('ends with error then response.failed; the SDK rejects', async () => {
    const bytes = await encode(failingEvents);
    const events = await sdkEvents(bytes);
    expect(events.slice(-2)).toMatchObject([
      { type: 'error', code: 'upstream_error', message: 'Upstream provider error', param: null },
      {
        type: 'response.failed',
        response: {
          status: 'failed',
          error: { code: 'server_error', message: 'Upstream provider error' },
          output: [{ type: 'message', status: 'incomplete', content: [{ text: 'Partial' }] }],
        },
      },
    ]);
    const failure = await openAiClient(bytes)
      .responses.stream(params)
      .finalResponse()
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ type: 'error', message: 'Upstream provider error' });
  });
});
