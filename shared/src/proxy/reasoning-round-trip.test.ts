/**
 * Reasoning across formats over two turns, through the whole handler: a Responses client (as
 * Codex is) on an Anthropic route gets the signed thinking block sealed in a reasoning item,
 * sends it back, and Anthropic gets its exact block again; an altered seal is the client's 400.
 */
import { describe, expect, it } from 'vitest';
import { clientCall, fakeDeps, MODEL, ROUTE, refusal } from '../../test/proxy/test-deps';
import { anthropicAdapter } from '../providers/anthropic/adapter';
import { handleModelRequest } from './handle-model-request';
import type { ResolvedModel } from './types';

const thinking = { type: 'thinking', thinking: 'I should read the file.', signature: 'EqQBCkgIARABGAIiQLX2' };
const toolUse = { type: 'tool_use', id: 'toolu_01', name: 'exec_command', input: { cmd: 'cat notes.txt' } };

/** Anthropic's answer to turn 1: its signed thinking, then the tool call. */
const TURN_ONE = {
  id: 'msg_01',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5-20250929',
  content: [thinking, toolUse],
  stop_reason: 'tool_use',
  stop_sequence: null,
  usage: { input_tokens: 40, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 30 },
};

const ANTHROPIC_MODEL: ResolvedModel = {
  ...MODEL,
  routes: [
    {
      ...ROUTE,
      providerType: 'anthropic',
      providerName: 'anthropic-main',
      upstreamModel: 'claude-sonnet-4-5',
    },
  ],
};

const turnOne = {
  model: 'house',
  reasoning: { effort: 'medium', summary: 'auto' },
  include: ['reasoning.encrypted_content'],
  store: false,
  input: [{ role: 'user', content: 'Read notes.txt' }],
  tools: [{ type: 'function', name: 'exec_command', parameters: { type: 'object', properties: {} } }],
};

function responsesCall(body: Record<string, unknown>) {
  const call = clientCall(body, 'openai-responses');
  return { ...call, call: { ...call.call, endpoint: '/v1/responses' as const } };
}

describe('reasoning through a client of another format, two turns', () => {
  it('seals the signed thinking for a Responses client and restores it exactly on the next turn', async () => {
    const { deps, fetched } = fakeDeps({
      model: ANTHROPIC_MODEL,
      providers: { anthropic: anthropicAdapter },
      upstream: () => Response.json(TURN_ONE),
    });
    const first = responsesCall(turnOne);
    const res = await handleModelRequest(first.call, deps);
    expect(fetched[0]?.body).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 16_384 } });
    const answer = (await res.json()) as { model: string; output: Array<Record<string, unknown>> };
    expect(answer.model).toBe('house');
    const [reasoning, call] = answer.output;
    expect(reasoning).toMatchObject({
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'I should read the file.' }],
    });
    const sealed = String(reasoning?.encrypted_content);
    expect(sealed.startsWith('sluice-r1.')).toBe(true);
    expect(sealed).not.toContain(thinking.signature);

    const second = responsesCall({
      ...turnOne,
      input: [
        ...turnOne.input,
        reasoning,
        call,
        { type: 'function_call_output', call_id: call?.call_id, output: 'The secret word is: PERIWINKLE' },
      ],
    });
    await handleModelRequest(second.call, deps);
    const sent = fetched[1]?.body as {
      messages: Array<{ role: string; content: unknown[] }>;
      thinking: unknown;
    };
    expect(sent.messages[1]).toEqual({
      role: 'assistant',
      content: [thinking, { ...toolUse, id: 'call_01' }],
    });
    expect(sent.thinking).toEqual({ type: 'enabled', budget_tokens: 16_384 });
    await Promise.all([first.settled(), second.settled()]);
  });

  it('refuses an altered seal with a 400 naming where it was, logged', async () => {
    const { deps, fetched, logs } = fakeDeps({
      model: ANTHROPIC_MODEL,
      providers: { anthropic: anthropicAdapter },
      upstream: () => Response.json(TURN_ONE),
    });
    const forged = responsesCall({
      ...turnOne,
      input: [
        ...turnOne.input,
        {
          type: 'reasoning',
          summary: [],
          encrypted_content: 'sluice-r1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAA',
        },
        { type: 'function_call', call_id: 'c1', name: 'exec_command', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c1', output: 'x' },
      ],
    });
    const error = await refusal(handleModelRequest(forged.call, deps));
    expect(error.status).toBe(400);
    expect(error.message).toBe(
      "Invalid 'input[1].encrypted_content': this reasoning was not issued by this gateway or was altered",
    );
    expect(fetched).toEqual([]);
    await forged.settled();
    expect(logs.map((row) => [row.statusCode, row.errorType])).toEqual([[400, 'invalid_request_error']]);
  });
});
