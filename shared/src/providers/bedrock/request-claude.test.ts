import { describe, expect, it } from 'vitest';
import { canonicalRequest, thrown, withMessagesBlock } from '../../../test/providers/common/test-fixtures';
import type { CanonicalMessage, ReasoningPart, ToolDefinition } from '../../canonical/types';
import { AppError } from '../../http/app-error';
import { CLAUDE_FALLBACK_MAX_TOKENS, type ConverseTarget, toConverseRequest } from './request';

const sonnet = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const claude = (extra: Partial<ConverseTarget> = {}): ConverseTarget => ({ upstreamModel: sonnet, ...extra });
const user = (text: string): CanonicalMessage => ({ role: 'user', content: [{ type: 'text', text }] });
const bash: ToolDefinition = {
  kind: 'function',
  name: 'Bash',
  description: 'Runs a command',
  parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
};

const signed = { reasoningContent: { reasoningText: { text: 'List the files.', signature: 'EqQBsig' } } };
const bedrockReasoning: ReasoningPart = {
  type: 'reasoning',
  text: 'List the files.',
  opaque: { vendor: 'bedrock', data: signed },
};
const call = { type: 'tool_call' as const, id: 'tooluse_1', name: 'Bash', arguments: '{"command":"ls"}' };
const result: CanonicalMessage = {
  role: 'user',
  content: [{ type: 'tool_result', toolCallId: 'tooluse_1', content: [{ type: 'text', text: 'a.txt' }] }],
};
const toolLoop = (first: ReasoningPart[]): CanonicalMessage[] => [
  user('What is here?'),
  { role: 'assistant', content: [...first, call] },
  result,
];

describe('Converse request for Claude: thinking, betas, output cap', () => {
  it('maps a Claude Code turn: thinking budget, betas Bedrock serves, no sampling beside thinking', () => {
    const body = toConverseRequest(
      canonicalRequest({
        messages: [user('Fix the bug')],
        maxTokens: 32_000,
        temperature: 1,
        reasoning: { effort: 'high', budgetTokens: 31_999 },
      }),
      claude({
        clientHeaders: new Headers({
          'anthropic-beta':
            'claude-code-20250219,oauth-2025-04-20,interleaved-thinking-2025-05-14, fine-grained-tool-streaming-2025-05-14,context-1m-2025-08-07,interleaved-thinking-2025-05-14',
        }),
      }),
    );
    expect(body).toEqual({
      messages: [{ role: 'user', content: [{ text: 'Fix the bug' }] }],
      inferenceConfig: { maxTokens: 32_000 },
      additionalModelRequestFields: {
        thinking: { type: 'enabled', budget_tokens: 31_999 },
        anthropic_beta: ['interleaved-thinking-2025-05-14', 'context-1m-2025-08-07'],
      },
    });
  });

  it("caps output at the route's model limit, else a fallback, when the client set none", () => {
    const effort = canonicalRequest({ reasoning: { effort: 'medium' } });
    expect(toConverseRequest(effort, claude({ maxOutputTokens: 64_000 }))).toMatchObject({
      inferenceConfig: { maxTokens: 64_000 },
      additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 16_384 } },
    });
    expect(toConverseRequest(effort, claude())).toMatchObject({
      inferenceConfig: { maxTokens: CLAUDE_FALLBACK_MAX_TOKENS },
      additionalModelRequestFields: { thinking: { budget_tokens: CLAUDE_FALLBACK_MAX_TOKENS - 1 } },
    });
    expect(toConverseRequest(canonicalRequest(), claude({ maxOutputTokens: 64_000 }))).toEqual({
      messages: [{ role: 'user', content: [{ text: 'Hello' }] }],
      inferenceConfig: { maxTokens: 64_000 },
    });
  });

  it('leaves thinking off for effort none, a budget that does not fit, and a forced tool', () => {
    const none = toConverseRequest(canonicalRequest({ reasoning: { effort: 'none' } }), claude());
    expect(none.additionalModelRequestFields).toBeUndefined();
    const tiny = canonicalRequest({ maxTokens: 1000, reasoning: { effort: 'low' } });
    expect(toConverseRequest(tiny, claude()).additionalModelRequestFields).toBeUndefined();
    for (const toolChoice of ['required', { name: 'Bash' }] as const) {
      const forced = toConverseRequest(
        canonicalRequest({ tools: [bash], toolChoice, temperature: 1.5, reasoning: { effort: 'high' } }),
        claude(),
      );
      expect(forced.additionalModelRequestFields).toBeUndefined();
      // Claude's temperature stops at 1; OpenAI-format clients may send up to 2.
      expect(forced.inferenceConfig).toEqual({ maxTokens: CLAUDE_FALLBACK_MAX_TOKENS, temperature: 1 });
    }
  });

  it('continues a tool loop with thinking only when the calling turn starts with its reasoning', () => {
    const reasoning = { effort: 'high' as const };
    const kept = toConverseRequest(
      canonicalRequest({ messages: toolLoop([bedrockReasoning]), tools: [bash], reasoning }),
      claude(),
    );
    expect(kept.messages[1]).toEqual({
      role: 'assistant',
      content: [signed, { toolUse: { toolUseId: 'tooluse_1', name: 'Bash', input: { command: 'ls' } } }],
    });
    expect(kept.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 8191 } });

    const anthropicThinking: ReasoningPart = {
      type: 'reasoning',
      text: 'List the files.',
      opaque: {
        vendor: 'anthropic',
        data: { type: 'thinking', thinking: 'List the files.', signature: 'x' },
      },
    };
    for (const first of [[], [anthropicThinking]]) {
      const lost = toConverseRequest(
        canonicalRequest({ messages: toolLoop(first), tools: [bash], reasoning }),
        claude(),
      );
      expect(lost.messages[1]?.content).toEqual([
        { toolUse: { toolUseId: 'tooluse_1', name: 'Bash', input: { command: 'ls' } } },
      ]);
      expect(lost.additionalModelRequestFields).toBeUndefined();
    }
  });

  it("sends back only Bedrock's own checkable reasoning, in assistant turns", () => {
    const redacted = { reasoningContent: { redactedContent: 'ZW5jcnlwdGVk' } };
    const unsigned = { reasoningContent: { reasoningText: { text: 'R1 thinks aloud.' } } };
    const part = (data: Record<string, unknown>): ReasoningPart => ({
      type: 'reasoning',
      text: '',
      opaque: { vendor: 'bedrock', data },
    });
    const openai: ReasoningPart = {
      type: 'reasoning',
      text: 'summary',
      opaque: { vendor: 'openai', data: { type: 'reasoning', encrypted_content: 'gAAA' } },
    };
    const body = toConverseRequest(
      canonicalRequest({
        messages: [
          { role: 'user', content: [bedrockReasoning, { type: 'text', text: 'Hi' }] },
          {
            role: 'assistant',
            content: [
              part(redacted),
              part(unsigned),
              openai,
              bedrockReasoning,
              { type: 'text', text: 'Hello' },
            ],
          },
          user('Again'),
        ],
      }),
      claude(),
    );
    expect(body.messages).toEqual([
      { role: 'user', content: [{ text: 'Hi' }] },
      { role: 'assistant', content: [redacted, signed, { text: 'Hello' }] },
      { role: 'user', content: [{ text: 'Again' }] },
    ]);
  });

  it('gives other model families no thinking, no betas and no default cap', () => {
    for (const upstreamModel of ['meta.llama3-3-70b-instruct-v1:0', 'us.deepseek.r1-v1:0']) {
      const body = toConverseRequest(canonicalRequest({ reasoning: { effort: 'high' }, temperature: 1.5 }), {
        upstreamModel,
        maxOutputTokens: 8192,
        clientHeaders: new Headers({ 'anthropic-beta': 'interleaved-thinking-2025-05-14' }),
      });
      expect(body).toEqual({
        messages: [{ role: 'user', content: [{ text: 'Hello' }] }],
        inferenceConfig: { temperature: 1.5 },
      });
    }
  });

  it('gives a Claude before 3.7 no thinking, but its betas and its cap', () => {
    const body = toConverseRequest(canonicalRequest({ reasoning: { effort: 'high' } }), {
      upstreamModel: 'anthropic.claude-3-5-haiku-20241022-v1:0',
      maxOutputTokens: 8192,
      clientHeaders: new Headers({ 'anthropic-beta': 'token-efficient-tools-2025-02-19' }),
    });
    expect(body.inferenceConfig).toEqual({ maxTokens: 8192 });
    expect(body.additionalModelRequestFields).toEqual({
      anthropic_beta: ['token-efficient-tools-2025-02-19'],
    });
  });

  it('folds mid-conversation system turns into the user side and refuses vendor parts', () => {
    const body = toConverseRequest(
      canonicalRequest({
        messages: [
          user('One'),
          { role: 'assistant', content: [{ type: 'text', text: 'Ok' }] },
          { role: 'system', content: [{ type: 'text', text: 'Be brief from now on.' }] },
          user('Two'),
        ],
      }),
      claude(),
    );
    expect(body.messages.at(-1)).toEqual({
      role: 'user',
      content: [{ text: 'Be brief from now on.' }, { text: 'Two' }],
    });
    const refusal = thrown(() =>
      toConverseRequest(
        withMessagesBlock({ type: 'document', source: { type: 'text', data: 'x' } }),
        claude(),
      ),
    );
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({
      status: 400,
      message: expect.stringMatching(/messages\[0\]\.content\[0\]/),
    });
  });
});
