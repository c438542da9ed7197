import { describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../canonical/types';
import { estimateEmbeddingTokens, estimateInputTokens, estimatePromptTokens } from './estimate-tokens';

describe('estimateInputTokens', () => {
  it('counts about four characters a token plus three a message', () => {
    const text = 'a'.repeat(400);
    expect(estimateInputTokens({ messages: [{ role: 'user', content: text }] })).toBe(100 + 3);
  });

  it('reads the system prompt, text blocks, tool calls and results, and tool definitions', () => {
    const base = estimateInputTokens({ messages: [{ role: 'user', content: 'hi' }] });
    const richer = estimateInputTokens({
      system: [{ type: 'text', text: 'You are terse.' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'lookup', input: { q: 'x' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'found it' }] },
      ],
      tools: [{ name: 'lookup', description: 'Looks a word up', input_schema: { type: 'object' } }],
    });
    expect(richer).toBeGreaterThan(base + 2 * 3 + 10);
  });

  it('prices an image or document at a flat 1,600 without reading its data', () => {
    const image = {
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(100_000) },
    };
    expect(estimateInputTokens({ messages: [{ role: 'user', content: [image] }] })).toBe(1_600 + 3);
  });
});

describe('estimateEmbeddingTokens', () => {
  it('counts four characters a token, at least one per text; token ids count themselves', () => {
    expect(estimateEmbeddingTokens({ kind: 'text', texts: ['a', 'twelve chars'] })).toBe(1 + 3);
    expect(estimateEmbeddingTokens({ kind: 'tokens', tokens: [[1, 2, 3], [4]] })).toBe(4);
  });
});

describe('estimatePromptTokens (what admission reserves for the prompt)', () => {
  const request = (patch: Partial<CanonicalRequest>): CanonicalRequest => ({
    model: 'm',
    system: [],
    messages: [],
    stream: false,
    ...patch,
  });

  it('gives the Messages body and its canonical form the same estimate', () => {
    const text = 'b'.repeat(400);
    const canonical = request({
      system: [{ type: 'text', text: 'You are terse.' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text }] },
        {
          role: 'assistant',
          content: [{ type: 'tool_call', id: 't1', name: 'lookup', arguments: '{"q":"x"}' }],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', toolCallId: 't1', content: [{ type: 'text', text: 'found it' }] }],
        },
      ],
    });
    // 14 + 400 + (6 + 9) + 8 characters, three messages.
    expect(estimatePromptTokens(canonical)).toBe(Math.ceil(437 / 4) + 9);
  });

  it('prices images flat and reads tool definitions, keys included', () => {
    const image = {
      type: 'image' as const,
      source: { kind: 'base64' as const, mediaType: 'image/png', data: 'A'.repeat(50_000) },
    };
    expect(estimatePromptTokens(request({ messages: [{ role: 'user', content: [image] }] }))).toBe(1_600 + 3);
    const tools = request({
      tools: [
        {
          name: 'lookup',
          description: 'Looks up',
          kind: 'function',
          parameters: { type: 'object', properties: { q: { type: 'string' } } },
        },
      ],
    });
    expect(estimatePromptTokens(tools)).toBeGreaterThan(Math.ceil('lookupLooks up'.length / 4));
  });
});
