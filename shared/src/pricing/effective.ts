import type { PriceEntry } from './types';

/** Where a request's prices come from: the model's own, the price table, or nowhere. */
export type PriceSource = 'model' | 'price_table' | 'none';

/** A configured model's own prices (USD per 1M tokens); null where unset. */
export interface OwnPrices {
  inputPricePerMtok: number | null;
  outputPricePerMtok: number | null;
  cachedInputPricePerMtok?: number | null;
  cacheWritePricePerMtok?: number | null;
  cacheWrite1hPricePerMtok?: number | null;
  /** An embedding model has no output tokens: its input price alone prices it. */
  kind?: 'chat' | 'embedding' | null;
}

export interface EffectivePrice {
  source: PriceSource;
  /** Null exactly when source is 'none'. */
  inputPricePerMtok: number | null;
  outputPricePerMtok: number | null;
  /** Null: cached input tokens are billed at the input price. */
  cachedInputPricePerMtok: number | null;
  /** Null: cache writes are billed at the input price. */
  cacheWritePricePerMtok: number | null;
  /** Null: one-hour cache writes are billed at the write price. */
  cacheWrite1hPricePerMtok: number | null;
  /** The price-table entry used, when source is 'price_table'. */
  priceTableModel: string | null;
}

export const UNPRICED: EffectivePrice = {
  source: 'none',
  inputPricePerMtok: null,
  outputPricePerMtok: null,
  cachedInputPricePerMtok: null,
  cacheWritePricePerMtok: null,
  cacheWrite1hPricePerMtok: null,
  priceTableModel: null,
};

/**
 * The precedence: a model's own prices win when both its input and output prices are set
 * (a half-priced model cannot price a request, so it defers to the table as an unpriced one
 * does) — for an embedding model, which has no output, when its input price is; otherwise the price-table entry matched for the route's upstream model; otherwise
 * none, and the request is logged unpriced (cost null), never at $0.
 */
export function effectivePrice(own: OwnPrices, entry: PriceEntry | null): EffectivePrice {
  const outputPrice = own.outputPricePerMtok ?? (own.kind === 'embedding' ? 0 : null);
  if (own.inputPricePerMtok !== null && outputPrice !== null) {
    return {
      source: 'model',
      inputPricePerMtok: own.inputPricePerMtok,
      outputPricePerMtok: outputPrice,
      cachedInputPricePerMtok: own.cachedInputPricePerMtok ?? null,
      cacheWritePricePerMtok: own.cacheWritePricePerMtok ?? null,
      cacheWrite1hPricePerMtok: own.cacheWrite1hPricePerMtok ?? null,
      priceTableModel: null,
    };
  }
  if (entry) {
    return {
      source: 'price_table',
      inputPricePerMtok: entry.inputPricePerMtok,
      outputPricePerMtok: entry.outputPricePerMtok,
      cachedInputPricePerMtok: entry.cachedInputPricePerMtok,
      cacheWritePricePerMtok: entry.cacheWritePricePerMtok,
      cacheWrite1hPricePerMtok: entry.cacheWrite1hPricePerMtok,
      priceTableModel: entry.model,
    };
  }
  return UNPRICED;
}
