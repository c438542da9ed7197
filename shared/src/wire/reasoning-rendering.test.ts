/**
 * Reasoning and tool shapes as each format renders them (golden), read back by the official
 * SDKs: what a client sees of another vendor's reasoning is its text and the gateway's seal.
 */
import { describe, expect, it } from 'vitest';
import { anthropicClient, openAiClient } from '../../test/wire/common/fixtures/sdk-clients';
import { encodeEvents, utf8 } from '../../test/wire/common/test-utils';
import type { CanonicalRequest, CanonicalResponse, StreamEvent } from '../canonical/types';
import { anthropicMessages, openaiChat, openaiResponses } from './index';

const USAGE = {
  inputTokens: 100,
  outputTokens: 20,
  cachedInputTokens: 60,
  cacheWriteTokens: 30,
  reasoningTokens: 12,
};

const SEALED = 'sluice-r1.aXY.c2VhbGVk';
const thinking = { type: 'thinking', thinking: 'Read it.', signature: 'EqQBsig' };

/** Reasoning (sealed: another vendor's), then a tool call; usage with reasoning and cache counts. */
const events: StreamEvent[] = [
  { type: 'start', id: 'up_1', model: 'upstream' },
  { type: 'reasoning_start', index: 0 },
  { type: 'reasoning_delta', index: 0, text: 'Read ' },
  { type: 'reasoning_delta', index: 0, text: 'it.' },
  { type: 'reasoning_opaque', index: 0, sealed: SEALED },
  { type: 'block_stop', index: 0 },
  { type: 'tool_call_start', index: 1, id: 'call_9', name: 'apply_patch' },
  { type: 'tool_call_delta', index: 1, argumentsDelta: '{"input":"*** Be' },
  { type: 'tool_call_delta', index: 1, argumentsDelta: 'gin"}' },
  { type: 'block_stop', index: 1 },
  { type: 'tool_call_start', index: 2, id: 'call_10', name: 'multi_agent_v1__spawn_agent' },
  { type: 'tool_call_delta', index: 2, argumentsDelta: '{}' },
  { type: 'block_stop', index: 2 },
  { type: 'finish', finishReason: 'tool_calls' },
  {
    type: 'usage',
    usage: USAGE,
  },
];

const request: CanonicalRequest = {
  model: 'my-alias',
  system: [],
  messages: [],
  stream: true,
  tools: [
    { kind: 'custom', name: 'apply_patch' },
    { kind: 'function', name: 'multi_agent_v1__spawn_agent', parameters: {}, namespace: 'multi_agent_v1' },
  ],
};

const answer: CanonicalResponse = {
  id: 'up_1',
  model: 'upstream',
  content: [
    { type: 'reasoning', text: 'Read it.', sealed: SEALED },
    { type: 'tool_call', id: 'call_9', name: 'apply_patch', arguments: '{"input":"*** Begin"}' },
  ],
  finishReason: 'tool_calls',
  usage: USAGE,
};

describe('Responses clients', () => {
  it('get a reasoning item with the seal, custom and namespaced calls in their shapes, full usage', async () => {
    const bytes = await encodeEvents(openaiResponses.createStreamEncoder('my-alias', request), events);
    const response = await openAiClient(bytes)
      .responses.stream({ model: 'my-alias', input: 'x' })
      .finalResponse();
    expect(response.output).toMatchObject([
      {
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: 'Read it.' }],
        encrypted_content: SEALED,
      },
      { type: 'custom_tool_call', call_id: 'call_9', name: 'apply_patch', input: '*** Begin' },
      { type: 'function_call', call_id: 'call_10', namespace: 'multi_agent_v1', name: 'spawn_agent' },
    ]);
    expect(response.usage).toEqual({
      input_tokens: 100,
      input_tokens_details: { cached_tokens: 60, cache_write_tokens: 30 },
      output_tokens: 20,
      output_tokens_details: { reasoning_tokens: 12 },
      total_tokens: 120,
    });
    const types = [...utf8(bytes).matchAll(/^event: (\S+)/gm)].map((match) => match[1]);
    expect(types.slice(2, 10)).toEqual([
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
    ]);
  });

  it("get OpenAI's own reasoning item back as it was, in a whole answer", () => {
    const own = { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAA' };
    const body = openaiResponses.renderResponse(
      { ...answer, content: [{ type: 'reasoning', text: '', opaque: { vendor: 'openai', data: own } }] },
      'my-alias',
      request,
    ) as { output: unknown[] };
    expect(body.output).toEqual([own]);
  });
});

describe('Messages clients', () => {
  it('get a thinking block whose signature is the seal, and cache and thinking usage', async () => {
    const bytes = await encodeEvents(anthropicMessages.createStreamEncoder('my-alias', request), events);
    const message = await anthropicClient(bytes)
      .messages.stream({ model: 'my-alias', max_tokens: 10, messages: [] })
      .finalMessage();
    expect(message.content[0]).toEqual({ type: 'thinking', thinking: 'Read it.', signature: SEALED });
    expect(message.content[1]).toMatchObject({
      type: 'tool_use',
      name: 'apply_patch',
      input: { input: '*** Begin' },
    });
    expect(message.usage).toMatchObject({
      input_tokens: 10,
      cache_read_input_tokens: 60,
      cache_creation_input_tokens: 30,
      output_tokens: 20,
      output_tokens_details: { thinking_tokens: 12 },
    });
  });

  it("get Anthropic's own blocks as they were: thinking with its signature, redacted thinking", async () => {
    const redacted = { type: 'redacted_thinking', data: 'EmwK' };
    const own: StreamEvent[] = [
      { type: 'start', id: 'up_1', model: 'upstream' },
      { type: 'reasoning_start', index: 0 },
      { type: 'reasoning_delta', index: 0, text: 'Read it.' },
      { type: 'reasoning_opaque', index: 0, opaque: { vendor: 'anthropic', data: thinking } },
      { type: 'block_stop', index: 0 },
      { type: 'reasoning_start', index: 1 },
      { type: 'reasoning_opaque', index: 1, opaque: { vendor: 'anthropic', data: redacted } },
      { type: 'block_stop', index: 1 },
      { type: 'finish', finishReason: 'stop' },
    ];
    const bytes = await encodeEvents(anthropicMessages.createStreamEncoder('my-alias'), own);
    const message = await anthropicClient(bytes)
      .messages.stream({ model: 'my-alias', max_tokens: 10, messages: [] })
      .finalMessage();
    expect(message.content).toEqual([thinking, redacted]);
    const body = anthropicMessages.renderResponse(answer, 'my-alias', request) as { content: unknown[] };
    expect(body.content[0]).toEqual({ type: 'thinking', thinking: 'Read it.', signature: SEALED });
  });
});

describe('Chat Completions clients', () => {
  it('get reasoning_content and the seal in reasoning_details, custom calls as custom', async () => {
    const bytes = await encodeEvents(openaiChat.createStreamEncoder('my-alias', request), events);
    const text = utf8(bytes);
    expect(text).toContain('"reasoning_content":"Read "');
    expect(text).toContain(
      `"reasoning_details":[{"type":"reasoning.encrypted","data":"${SEALED}","format":"sluice"}]`,
    );
    expect(text).toContain('"custom":{"name":"apply_patch","input":"*** Begin"}');
    const body = openaiChat.renderResponse(answer, 'my-alias', request) as {
      choices: Array<{ message: Record<string, unknown> }>;
      usage: unknown;
    };
    // The first call's id carries the seal too: chat clients that drop reasoning_details
    // (opencode) send the id back exactly.
    expect(body.choices[0]?.message).toMatchObject({
      content: null,
      reasoning_content: 'Read it.',
      reasoning_details: [{ type: 'reasoning.encrypted', data: SEALED, format: 'sluice' }],
      tool_calls: [
        { id: `call_9.${SEALED}`, type: 'custom', custom: { name: 'apply_patch', input: '*** Begin' } },
      ],
    });
    expect(text).toContain(`"id":"call_9.${SEALED}"`);
    expect(text).toContain('"id":"call_10"');
    // What such a client sends back: the text and the call ids, nothing else of the reasoning.
    const back = openaiChat.parseRequest({
      model: 'my-alias',
      messages: [
        { role: 'user', content: 'Patch it' },
        {
          role: 'assistant',
          content: '',
          reasoning_content: 'Read it.',
          tool_calls: [
            { id: `call_9.${SEALED}`, type: 'custom', custom: { name: 'apply_patch', input: '*** Begin' } },
          ],
        },
        { role: 'tool', tool_call_id: `call_9.${SEALED}`, content: 'patched' },
      ],
    });
    expect(back.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Read it.', sealed: SEALED, field: 'messages[1].tool_calls[0].id' },
          { type: 'tool_call', id: 'call_9', name: 'apply_patch', arguments: '{"input":"*** Begin"}' },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', toolCallId: 'call_9', content: [{ type: 'text', text: 'patched' }] },
        ],
      },
    ]);
    expect(body.usage).toEqual({
      prompt_tokens: 100,
      completion_tokens: 20,
      total_tokens: 120,
      prompt_tokens_details: { cached_tokens: 60, cache_write_tokens: 30 },
      completion_tokens_details: { reasoning_tokens: 12 },
    });
  });
});
