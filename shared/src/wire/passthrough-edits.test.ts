import { describe, expect, it } from 'vitest';
import { collect, streamOf } from '../../test/wire/common/test-utils';
import type { ReasoningOpaque } from '../canonical/types';
import { anthropicMessages, openaiChat, openaiResponses } from './index';

/** A stand-in for the gateway's seal: `sluice-r1.<vendor>.<n>` opens to the n-th opaque. */
function fakeSeal(opaques: ReasoningOpaque[]) {
  const opened: string[] = [];
  const open = async (value: string, field: string) => {
    opened.push(field);
    return opaques[Number(value.split('.')[2])] ?? null;
  };
  return { open, opened };
}

const anthropicThinking = { type: 'thinking', thinking: 'Plan.', signature: 'EqQBsig' };
const openAiReasoning = { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAA' };
const opaques: ReasoningOpaque[] = [
  { vendor: 'anthropic', data: anthropicThinking },
  { vendor: 'openai', data: openAiReasoning },
];

describe('reasoning sealed for a client, passed through to a vendor', () => {
  it('Messages: restores the vendor’s own thinking block and leaves out another vendor’s', async () => {
    const { open, opened } = fakeSeal(opaques);
    const body = {
      model: 'm',
      messages: [
        { role: 'user', content: 'Hi' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Plan.', signature: 'sluice-r1.x.0' },
            { type: 'redacted_thinking', data: 'sluice-r1.x.1' },
            { type: 'text', text: 'Done.' },
          ],
        },
      ],
    };
    const restored = await anthropicMessages.restoreReasoning(body, 'anthropic', open);
    expect(restored.messages).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: [anthropicThinking, { type: 'text', text: 'Done.' }] },
    ]);
    expect(opened).toEqual(['messages[1].content[0].signature', 'messages[1].content[1].data']);
    // Nothing sealed: the very same body, nothing opened.
    const plain = { model: 'm', messages: [{ role: 'assistant', content: [anthropicThinking] }] };
    expect(await anthropicMessages.restoreReasoning(plain, 'anthropic', open)).toBe(plain);
  });

  it('Responses: restores OpenAI’s own reasoning item and leaves out another vendor’s', async () => {
    const { open, opened } = fakeSeal(opaques);
    const body = {
      model: 'm',
      input: [
        { role: 'user', content: 'Hi' },
        { type: 'reasoning', summary: [], encrypted_content: 'sluice-r1.x.1' },
        {
          type: 'reasoning',
          summary: [{ type: 'summary_text', text: 'Plan.' }],
          encrypted_content: 'sluice-r1.x.0',
        },
        { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
      ],
    };
    const restored = await openaiResponses.restoreReasoning(body, 'openai', open);
    expect(restored.input).toEqual([
      { role: 'user', content: 'Hi' },
      openAiReasoning,
      { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
    ]);
    expect(opened).toEqual(['input[1].encrypted_content', 'input[2].encrypted_content']);
  });

  it('Chat Completions: takes the gateway’s seals off tool call ids', async () => {
    const { open } = fakeSeal(opaques);
    const body = {
      model: 'm',
      messages: [
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1.sluice-r1.x.0', type: 'function', function: { name: 'f', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1.sluice-r1.x.0', content: 'ok' },
      ],
    };
    const restored = await openaiChat.restoreReasoning(body, 'openai', open);
    expect(restored.messages).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'ok' },
    ]);
  });

  it('Chat Completions: takes the gateway’s seals out of reasoning_details, keeps the rest', async () => {
    const { open } = fakeSeal(opaques);
    const other = { type: 'reasoning.text', text: 'x' };
    const body = {
      model: 'm',
      messages: [
        {
          role: 'assistant',
          content: 'Done.',
          reasoning_content: 'Plan.',
          reasoning_details: [
            { type: 'reasoning.encrypted', data: 'sluice-r1.x.0', format: 'sluice' },
            other,
          ],
        },
        {
          role: 'assistant',
          content: 'Again.',
          reasoning_details: [{ type: 'reasoning.encrypted', data: 'sluice-r1.x.1' }],
        },
      ],
    };
    const restored = await openaiChat.restoreReasoning(body, 'openai', open);
    expect(restored.messages).toEqual([
      { role: 'assistant', content: 'Done.', reasoning_content: 'Plan.', reasoning_details: [other] },
      { role: 'assistant', content: 'Again.' },
    ]);
  });
});

describe("the client's model name in a passed-through answer", () => {
  const decode = (chunks: Uint8Array[]) => new TextDecoder().decode(Buffer.concat(chunks));

  it('Messages: message_start names the alias; nothing else is touched', async () => {
    const plan = anthropicMessages.preparePassthrough({ model: 'agent-anth' }, { clientModel: 'agent-anth' });
    const stream = [
      'event: message_start',
      'data: {"type":"message_start","message":{"id":"msg_1","model":"claude-sonnet-4-5-20250929","usage":{"input_tokens":3,"output_tokens":1}}}',
      '',
      'event: content_block_delta',
      'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"\\"model\\":\\"x\\""}}',
      '',
      '',
    ].join('\n');
    const reader = anthropicMessages.createNativeUsageReader(plan);
    const out = decode(
      await collect(streamOf([new TextEncoder().encode(stream)]).pipeThrough(reader.transform)),
    );
    expect(out).toBe(stream.replace('claude-sonnet-4-5-20250929', 'agent-anth'));
    expect(await reader.usage).toEqual({ inputTokens: 3, outputTokens: 1 });
    expect(plan.clientModel).toBe('agent-anth');
  });

  it('Responses: every response.* lifecycle event names the alias', async () => {
    const plan = openaiResponses.preparePassthrough({ model: 'agent-oai' }, { clientModel: 'agent-oai' });
    const event = (type: string, extra: object) =>
      `event: ${type}\ndata: ${JSON.stringify({ type, ...extra, sequence_number: 0 })}\n\n`;
    const stream =
      event('response.created', { response: { id: 'resp_1', model: 'gpt-5.1-codex' } }) +
      event('response.output_text.delta', { item_id: 'm', delta: 'hi' }) +
      event('response.completed', {
        response: { id: 'resp_1', model: 'gpt-5.1-codex', usage: { input_tokens: 5, output_tokens: 2 } },
      });
    const reader = openaiResponses.createNativeUsageReader(plan);
    const out = decode(
      await collect(streamOf([new TextEncoder().encode(stream)]).pipeThrough(reader.transform)),
    );
    expect(out).toBe(stream.replaceAll('gpt-5.1-codex', 'agent-oai'));
    expect(await reader.usage).toEqual({ inputTokens: 5, outputTokens: 2 });
  });

  it('asks for no edit when the client named the upstream model itself', () => {
    expect(anthropicMessages.preparePassthrough({ model: 'claude-sonnet-4-5' })).toEqual({
      body: { model: 'claude-sonnet-4-5' },
    });
    expect(openaiResponses.preparePassthrough({ model: 'gpt-5' }, {}).clientModel).toBeUndefined();
  });
});
