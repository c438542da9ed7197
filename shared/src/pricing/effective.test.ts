import { describe, expect, it } from 'vitest';
import { costUsd } from '../logs/requests/cost';
import { effectivePrice } from './effective';
import type { PriceEntry } from './types';

const table: PriceEntry = {
  model: 'gpt-4o',
  vendor: 'openai',
  inputPricePerMtok: 2.5,
  outputPricePerMtok: 10,
  cachedInputPricePerMtok: 1.25,
  cacheWritePricePerMtok: 3.125,
  cacheWrite1hPricePerMtok: 5,
};

describe('effectivePrice', () => {
  it("uses the model's own prices when both are set, over the table", () => {
    const own = { inputPricePerMtok: 1, outputPricePerMtok: 2, cachedInputPricePerMtok: 0.5 };
    expect(effectivePrice(own, table)).toEqual({
      source: 'model',
      inputPricePerMtok: 1,
      outputPricePerMtok: 2,
      cachedInputPricePerMtok: 0.5,
      // The model's own write prices, never the table's: unset, writes are billed at its input price.
      cacheWritePricePerMtok: null,
      cacheWrite1hPricePerMtok: null,
      priceTableModel: null,
    });
    expect(
      effectivePrice({ ...own, cacheWritePricePerMtok: 1.25, cacheWrite1hPricePerMtok: 2 }, table),
    ).toMatchObject({ cacheWritePricePerMtok: 1.25, cacheWrite1hPricePerMtok: 2 });
    // A free model is priced (at 0), not unpriced.
    expect(effectivePrice({ inputPricePerMtok: 0, outputPricePerMtok: 0 }, table).source).toBe('model');
  });

  it('falls back to the table entry when the model has no (or half a) price', () => {
    for (const own of [
      { inputPricePerMtok: null, outputPricePerMtok: null },
      { inputPricePerMtok: 1, outputPricePerMtok: null, cachedInputPricePerMtok: 0.1 },
    ]) {
      expect(effectivePrice(own, table)).toEqual({
        source: 'price_table',
        inputPricePerMtok: 2.5,
        outputPricePerMtok: 10,
        cachedInputPricePerMtok: 1.25,
        cacheWritePricePerMtok: 3.125,
        cacheWrite1hPricePerMtok: 5,
        priceTableModel: 'gpt-4o',
      });
    }
  });

  it('prices an embedding model by its input price alone (it has no output tokens)', () => {
    const own = { inputPricePerMtok: 0.02, outputPricePerMtok: null, kind: 'embedding' as const };
    const price = effectivePrice(own, table);
    expect(price).toMatchObject({ source: 'model', inputPricePerMtok: 0.02, outputPricePerMtok: 0 });
    expect(costUsd({ inputTokens: 1_000_000, outputTokens: 0 }, price)).toBeCloseTo(0.02, 12);
    expect(effectivePrice({ ...own, kind: 'chat' }, table).source).toBe('price_table');
  });

  it('is unpriced without either, and such a price costs null, never 0', () => {
    const price = effectivePrice({ inputPricePerMtok: null, outputPricePerMtok: 3 }, null);
    expect(price.source).toBe('none');
    expect(costUsd({ inputTokens: 10, outputTokens: 10 }, price)).toBeNull();
    expect(costUsd({ inputTokens: 0, outputTokens: 0 }, price)).toBeNull();
  });

  it('prices a request through the table with the cached rate', () => {
    const price = effectivePrice({ inputPricePerMtok: null, outputPricePerMtok: null }, table);
    expect(costUsd({ inputTokens: 2000, outputTokens: 100, cachedInputTokens: 1000 }, price)).toBe(0.00475);
  });
});
