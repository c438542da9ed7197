import { describe, expect, it } from 'vitest';
import { estimateEmbeddingTokens, estimateInputTokens } from './estimate-tokens';

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
