import { describe, expect, it } from 'vitest';
import { canonicalRequest } from '../../../test/providers/common/test-fixtures';
import type { UpstreamTarget } from '../../canonical/ports';
import type { CanonicalMessage, CanonicalRequest, ReasoningPart } from '../../canonical/types';
import { AppError } from '../../http/app-error';
import { toAnthropicBody } from './request';

const TARGET: UpstreamTarget = { baseUrl: '', apiKey: 'k', upstreamModel: 'claude-sonnet-4-5', config: {} };
const body = (overrides: Partial<CanonicalRequest> = {}, target: Partial<UpstreamTarget> = {}) =>
  toAnthropicBody(canonicalRequest(overrides), { ...TARGET, maxOutputTokens: 64_000, ...target });

const thinking = { type: 'thinking', thinking: 'Read it first.', signature: 'EqQBsig' };
const anthropicThinking: ReasoningPart = {
  type: 'reasoning',
  text: 'Read it first.',
  opaque: { vendor: 'anthropic', data: thinking },
};
const openAiReasoning: ReasoningPart = {
  type: 'reasoning',
  text: 'Plan.',
  opaque: { vendor: 'openai', data: { type: 'reasoning', encrypted_content: 'gAAA' } },
};

/** A tool loop in progress: the model called a tool, the client answers with its result. */
function toolLoop(first: ReasoningPart | null): CanonicalMessage[] {
  return [
    { role: 'user', content: [{ type: 'text', text: 'Read notes.txt' }] },
    {
      role: 'assistant',
      content: [
        ...(first ? [first] : []),
        { type: 'tool_call', id: 'toolu_1', name: 'Read', arguments: '{"file_path":"notes.txt"}' },
      ],
    },
    {
      role: 'user',
      content: [{ type: 'tool_result', toolCallId: 'toolu_1', content: [{ type: 'text', text: 'x' }] }],
    },
  ];
}

describe('toAnthropicBody for agents of other formats', () => {
  it.each([
    [{ effort: 'minimal' }, { type: 'enabled', budget_tokens: 1024 }],
    [{ effort: 'low' }, { type: 'enabled', budget_tokens: 4096 }],
    [{ effort: 'medium' }, { type: 'enabled', budget_tokens: 16_384 }],
    [{ effort: 'high' }, { type: 'enabled', budget_tokens: 32_768 }],
    [{ effort: 'xhigh' }, { type: 'enabled', budget_tokens: 63_999 }],
    [
      { effort: 'high', budgetTokens: 5000 },
      { type: 'enabled', budget_tokens: 5000 },
    ],
    [
      { effort: 'medium', summary: 'none' },
      { type: 'enabled', budget_tokens: 16_384, display: 'omitted' },
    ],
    [{ effort: 'none' }, undefined],
  ] as const)('maps reasoning %j to thinking %j (golden)', (reasoning, expected) => {
    expect(body({ reasoning }).thinking).toEqual(expected);
  });

  it('keeps thinking below max_tokens and off when no budget fits, and drops sampling beside it', () => {
    expect(body({ reasoning: { effort: 'high' }, maxTokens: 2000 }).thinking).toEqual({
      type: 'enabled',
      budget_tokens: 1999,
    });
    const small = body({ reasoning: { effort: 'high' }, maxTokens: 1000, temperature: 0.2 });
    expect(small).not.toHaveProperty('thinking');
    expect(small.temperature).toBe(0.2);
    const thinkingOn = body({ reasoning: { effort: 'low' }, temperature: 0.2, topP: 0.5 });
    expect(thinkingOn).not.toHaveProperty('temperature');
    expect(thinkingOn).not.toHaveProperty('top_p');
  });

  it('turns thinking off for a forced tool choice and for a tool loop without its thinking block', () => {
    const tools = [{ kind: 'function' as const, name: 'Read', parameters: {} }];
    expect(body({ reasoning: { effort: 'low' }, tools, toolChoice: 'required' })).not.toHaveProperty(
      'thinking',
    );
    expect(body({ reasoning: { effort: 'low' }, messages: toolLoop(null) })).not.toHaveProperty('thinking');
    expect(body({ reasoning: { effort: 'low' }, messages: toolLoop(openAiReasoning) })).not.toHaveProperty(
      'thinking',
    );
    const resumed = body({ reasoning: { effort: 'low' }, messages: toolLoop(anthropicThinking) });
    expect(resumed.thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
    // Anthropic's own block goes back exactly; another vendor's reasoning cannot.
    expect((resumed.messages as Array<{ content: unknown[] }>)[1]?.content[0]).toEqual(thinking);
    const other = body({ messages: toolLoop(openAiReasoning) }).messages as Array<{ content: unknown[] }>;
    expect(other[1]?.content).toEqual([
      { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'notes.txt' } },
    ]);
  });

  it('keeps mid-conversation system turns in place', () => {
    const out = body({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
        { role: 'system', content: [{ type: 'text', text: 'Mind the date.' }] },
        { role: 'user', content: [{ type: 'text', text: 'Go' }] },
      ],
    });
    expect(out.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      { role: 'system', content: [{ type: 'text', text: 'Mind the date.' }] },
      { role: 'user', content: [{ type: 'text', text: 'Go' }] },
    ]);
  });

  it('maps custom tools to one string input and web search to its server tool (golden)', () => {
    const out = body({
      tools: [
        { kind: 'custom', name: 'apply_patch', description: 'Patch files' },
        {
          kind: 'hosted',
          format: 'openai-responses',
          field: 'tools[1]',
          type: 'web_search',
          declaration: { type: 'web_search' },
        },
        {
          kind: 'hosted',
          format: 'anthropic-messages',
          field: 'tools[2]',
          type: 'bash_20250124',
          declaration: { type: 'bash_20250124', name: 'bash' },
        },
      ],
    });
    expect(out.tools).toEqual([
      {
        name: 'apply_patch',
        description: 'Patch files',
        input_schema: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] },
      },
      { type: 'web_search_20250305', name: 'web_search' },
      { type: 'bash_20250124', name: 'bash' },
    ]);
  });

  it('refuses with a 400 naming the construct what has no Anthropic equivalent', () => {
    const refusal = (request: Partial<CanonicalRequest>) => {
      try {
        body(request);
      } catch (error) {
        expect(error).toBeInstanceOf(AppError);
        return `${(error as AppError).status} ${(error as AppError).message}`;
      }
      return 'no error';
    };
    const hosted = {
      kind: 'hosted' as const,
      format: 'openai-responses' as const,
      field: 'tools[4]',
      type: 'file_search',
      declaration: { type: 'file_search' },
    };
    expect(refusal({ tools: [hosted] })).toBe(
      "400 Invalid 'tools[4]': tool type file_search has no equivalent on an anthropic-type route",
    );
    const audio = {
      type: 'vendor' as const,
      format: 'openai-chat' as const,
      field: 'messages[1].content[0]',
      block: { type: 'input_audio' },
    };
    expect(refusal({ messages: [{ role: 'user', content: [audio] }] })).toBe(
      "400 Invalid 'messages[1].content[0]': type input_audio has no equivalent on an anthropic-type route",
    );
  });

  it('places cache breakpoints for clients that set none, and keeps the marks of those that did', () => {
    const request: Partial<CanonicalRequest> = {
      system: [{ type: 'text', text: 'You are an agent.' }],
      tools: [
        { kind: 'function', name: 'Read', parameters: {} },
        { kind: 'function', name: 'Bash', parameters: {} },
      ],
      messages: toolLoop(anthropicThinking),
    };
    const ephemeral = { type: 'ephemeral' };
    const placed = body(request, { cacheBreakpoints: true });
    expect(placed.system).toEqual([{ type: 'text', text: 'You are an agent.', cache_control: ephemeral }]);
    expect((placed.tools as unknown[])[1]).toMatchObject({ name: 'Bash', cache_control: ephemeral });
    expect(placed.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Read notes.txt', cache_control: ephemeral }] },
      {
        role: 'assistant',
        content: [
          thinking,
          { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'notes.txt' } },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_1',
            content: [{ type: 'text', text: 'x' }],
            cache_control: ephemeral,
          },
        ],
      },
    ]);
    expect(JSON.stringify(body(request))).not.toContain('cache_control');
    const own = body(
      { ...request, system: [{ type: 'text', text: 'You are an agent.', cache: { ttl: '1h' } }] },
      { cacheBreakpoints: true },
    );
    expect(own.system).toEqual([
      { type: 'text', text: 'You are an agent.', cache_control: { type: 'ephemeral', ttl: '1h' } },
    ]);
    expect(JSON.stringify(own.messages)).not.toContain('cache_control');
  });
});
