import { describe, expect, it } from 'vitest';
import { canonicalRequest } from '../../../test/providers/common/test-fixtures';
import { forModel, takesReasoning } from './reasoning-models';

describe('which OpenAI models take reasoning parameters', () => {
  it.each([
    ['gpt-4o', false],
    ['gpt-4o-mini-2024-07-18', false],
    ['gpt-4.1-nano', false],
    ['gpt-4-turbo', false],
    ['gpt-3.5-turbo', false],
    ['chatgpt-4o-latest', false],
    ['o3', true],
    ['o4-mini', true],
    ['gpt-5.1-codex', true],
    ['gpt-oss-120b', true],
    ['my-local-model', true],
  ])('%s: %s', (model, takes) => {
    expect(takesReasoning(model)).toBe(takes);
  });

  it('leaves the reasoning out for a model that refuses it, and only then', () => {
    const request = canonicalRequest({ reasoning: { effort: 'high' } });
    expect(forModel(request, 'gpt-4.1')).not.toHaveProperty('reasoning');
    expect(forModel(request, 'gpt-5')).toBe(request);
  });
});
