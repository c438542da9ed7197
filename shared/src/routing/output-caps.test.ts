import { describe, expect, it } from 'vitest';
import { knownMaxOutputTokens } from './output-caps';

describe('known output caps', () => {
  it.each([
    ['claude-opus-4-20250514', 32_000],
    ['claude-opus-4-1', 32_000],
    ['claude-opus-4-5', 64_000],
    ['claude-sonnet-4-5-20250929', 64_000],
    ['us.anthropic.claude-sonnet-4-5-20250929-v1:0', 64_000],
    ['anthropic.claude-3-5-haiku-20241022-v1:0', 8192],
    ['claude-3-haiku-20240307', 4096],
    ['claude-haiku-4-5', 64_000],
    ['gpt-4o-mini', 16_384],
    ['gpt-5.1-codex', 128_000],
    ['o4-mini', 100_000],
  ])('%s produces at most %i tokens', (model, cap) => {
    expect(knownMaxOutputTokens(model)).toBe(cap);
  });

  it('knows nothing of a model it has not heard of', () => {
    expect(knownMaxOutputTokens('my-local-llama')).toBeUndefined();
  });

  it('answers the same on every call, past the bound of what it remembers', () => {
    for (let round = 0; round < 2; round++) {
      expect(knownMaxOutputTokens('my-local-llama')).toBeUndefined();
      expect(knownMaxOutputTokens('GPT-4o')).toBe(16_384);
    }
    for (let i = 0; i < 300; i++) expect(knownMaxOutputTokens(`model-${i}`)).toBeUndefined();
    expect(knownMaxOutputTokens('GPT-4o')).toBe(16_384);
    expect(knownMaxOutputTokens('claude-opus-4-1')).toBe(32_000);
  });
});
