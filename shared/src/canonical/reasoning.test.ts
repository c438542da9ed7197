import { describe, expect, it } from 'vitest';
import { effortForBudget, thinkingBudget } from './reasoning';

describe('the effort tables (docs/agents.md)', () => {
  it.each([
    [1024, 'low'],
    [4096, 'low'],
    [4097, 'medium'],
    [16_384, 'medium'],
    [31_999, 'high'],
    [128_000, 'high'],
  ] as const)('budget %i is effort %s', (budget, effort) => {
    expect(effortForBudget(budget)).toBe(effort);
  });

  it.each([
    [{ effort: 'minimal' }, 64_000, 1024],
    [{ effort: 'low' }, 64_000, 4096],
    [{ effort: 'medium' }, 64_000, 16_384],
    [{ effort: 'high' }, 64_000, 32_768],
    [{ effort: 'xhigh' }, 64_000, 63_999],
    [{ effort: 'high', budgetTokens: 2000 }, 64_000, 2000],
    [{ effort: 'high' }, 8192, 8191],
    [{ effort: 'low' }, 1024, null],
    [{ effort: 'none' }, 64_000, null],
    [undefined, 64_000, null],
  ] as const)('reasoning %j with max_tokens %i thinks with budget %s', (reasoning, maxTokens, budget) => {
    expect(thinkingBudget(reasoning, maxTokens)).toBe(budget);
  });
});
