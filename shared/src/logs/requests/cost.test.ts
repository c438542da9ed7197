import { describe, expect, it } from 'vitest';
import { costUsd, weightedTokens } from './cost';

describe('weightedTokens', () => {
  it('weights input and output and rounds to a whole token', () => {
    expect(
      weightedTokens({ inputTokens: 1000, outputTokens: 500 }, { inputWeight: 1, outputWeight: 1 }),
    ).toBe(1500);
    expect(weightedTokens({ inputTokens: 3, outputTokens: 1 }, { inputWeight: 0.5, outputWeight: 4 })).toBe(
      6,
    );
    // Half a token rounds up; 3 * 0.1 (0.30000000000000004) rounds down.
    expect(weightedTokens({ inputTokens: 1, outputTokens: 0 }, { inputWeight: 0.5, outputWeight: 1 })).toBe(
      1,
    );
    expect(weightedTokens({ inputTokens: 3, outputTokens: 0 }, { inputWeight: 0.1, outputWeight: 1 })).toBe(
      0,
    );
    expect(weightedTokens({ inputTokens: 7, outputTokens: 0 }, { inputWeight: 0.1, outputWeight: 1 })).toBe(
      1,
    );
  });

  it('ignores cached tokens (they are part of the input) and handles zero usage', () => {
    expect(
      weightedTokens(
        { inputTokens: 100, outputTokens: 10, cachedInputTokens: 90 },
        { inputWeight: 2, outputWeight: 3 },
      ),
    ).toBe(230);
    expect(weightedTokens({ inputTokens: 0, outputTokens: 0 }, { inputWeight: 2, outputWeight: 3 })).toBe(0);
  });

  it('stays exact for counts above 2^31', () => {
    const big = 2 ** 31 + 7;
    expect(weightedTokens({ inputTokens: big, outputTokens: big }, { inputWeight: 1, outputWeight: 2 })).toBe(
      3 * big,
    );
  });
});

describe('costUsd', () => {
  const prices = { inputPricePerMtok: 3, outputPricePerMtok: 15 };

  it('prices input and output per million tokens', () => {
    expect(costUsd({ inputTokens: 1_000_000, outputTokens: 1_000_000 }, prices)).toBe(18);
    expect(costUsd({ inputTokens: 1000, outputTokens: 500 }, prices)).toBe(0.0105);
    expect(costUsd({ inputTokens: 1, outputTokens: 0 }, prices)).toBe(0.000003);
    expect(costUsd({ inputTokens: 0, outputTokens: 0 }, prices)).toBe(0);
  });

  it('keeps precision to the nano-dollar without float noise', () => {
    // Unrounded these come out as 3.0000000000000004e-7, 0.00033000000000000005, 9.000000000000001e-7.
    expect(
      costUsd({ inputTokens: 3, outputTokens: 0 }, { inputPricePerMtok: 0.1, outputPricePerMtok: 0 }),
    ).toBe(3e-7);
    expect(
      costUsd({ inputTokens: 100, outputTokens: 100 }, { inputPricePerMtok: 1.1, outputPricePerMtok: 2.2 }),
    ).toBe(0.00033);
    expect(
      costUsd({ inputTokens: 3, outputTokens: 3 }, { inputPricePerMtok: 0.1, outputPricePerMtok: 0.2 }),
    ).toBe(9e-7);
    expect(
      costUsd(
        { inputTokens: 123_456, outputTokens: 7_890 },
        { inputPricePerMtok: 2.5, outputPricePerMtok: 10 },
      ),
    ).toBe(0.38754);
    // Below a nano-dollar rounds away.
    expect(
      costUsd({ inputTokens: 1, outputTokens: 0 }, { inputPricePerMtok: 0.0001, outputPricePerMtok: 0 }),
    ).toBe(0);
  });

  it('is null, never 0, when either price is missing', () => {
    const usage = { inputTokens: 10, outputTokens: 10 };
    expect(costUsd(usage, { inputPricePerMtok: null, outputPricePerMtok: 1 })).toBeNull();
    expect(costUsd(usage, { inputPricePerMtok: 1, outputPricePerMtok: null })).toBeNull();
    expect(costUsd(usage, { inputPricePerMtok: null, outputPricePerMtok: null })).toBeNull();
    expect(
      costUsd({ inputTokens: 0, outputTokens: 0 }, { inputPricePerMtok: null, outputPricePerMtok: 1 }),
    ).toBeNull();
  });

  it('treats a price of 0 as free, not unpriced', () => {
    expect(
      costUsd({ inputTokens: 10, outputTokens: 10 }, { inputPricePerMtok: 0, outputPricePerMtok: 0 }),
    ).toBe(0);
  });

  it('bills cached input tokens once, at the cached price when there is one', () => {
    const usage = { inputTokens: 1_000_000, outputTokens: 0, cachedInputTokens: 400_000 };
    // 600k uncached at $2.50 + 400k cached at $1.25.
    expect(
      costUsd(usage, { inputPricePerMtok: 2.5, outputPricePerMtok: 10, cachedInputPricePerMtok: 1.25 }),
    ).toBe(2);
    // No cached price: every input token at the input price (cached ones are not added twice).
    expect(costUsd(usage, { inputPricePerMtok: 2.5, outputPricePerMtok: 10 })).toBe(2.5);
    expect(
      costUsd(usage, { inputPricePerMtok: 2.5, outputPricePerMtok: 10, cachedInputPricePerMtok: null }),
    ).toBe(2.5);
    expect(
      costUsd(
        { inputTokens: 1117, outputTokens: 46, cachedInputTokens: 1024 },
        { inputPricePerMtok: 2.5, outputPricePerMtok: 10, cachedInputPricePerMtok: 1.25 },
      ),
    ).toBe(0.0019725);
  });

  it('never bills more cached tokens than input tokens, nor a negative count', () => {
    const prices = { inputPricePerMtok: 4, outputPricePerMtok: 0, cachedInputPricePerMtok: 1 };
    expect(costUsd({ inputTokens: 10, outputTokens: 0, cachedInputTokens: 50 }, prices)).toBe(0.00001);
    expect(costUsd({ inputTokens: 10, outputTokens: 0, cachedInputTokens: -5 }, prices)).toBe(0.00004);
  });
});
