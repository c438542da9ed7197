import type { Usage } from '../../canonical/types';

export interface TokenWeights {
  inputWeight: number;
  outputWeight: number;
}

export interface TokenPrices {
  /** USD per million input tokens; null means unpriced. */
  inputPricePerMtok: number | null;
  /** USD per million output tokens; null means unpriced. */
  outputPricePerMtok: number | null;
  /** USD per million cached input tokens; null or absent: billed at the input price. */
  cachedInputPricePerMtok?: number | null;
  /** USD per million input tokens written to the prompt cache; null or absent: the input price. */
  cacheWritePricePerMtok?: number | null;
  /** The same for one-hour cache writes; null or absent: the (five-minute) write price. */
  cacheWrite1hPricePerMtok?: number | null;
}

/** Cost is kept to the nano-dollar: enough for any per-token price, and it hides float noise. */
const COST_SCALE = 1e9;

/** What limits and budgets count: input and output tokens by the model's weights, rounded. */
export function weightedTokens(usage: Usage, weights: TokenWeights): number {
  return Math.round(usage.inputTokens * weights.inputWeight + usage.outputTokens * weights.outputWeight);
}

/**
 * The request's cost in USD from per-million-token prices, rounded to 1e-9 USD. Null when the
 * input or output price is missing: an unpriced request is recorded as such, never as 0.
 * Every provider reports cache reads and cache writes as subsets of inputTokens (canonical
 * Usage), so each input token is billed once: reads at the cached price, writes at the write
 * price of their lifetime (five minutes or one hour), the rest at the input price; a price
 * not set falls back to the input price (the one-hour write to the five-minute one).
 */
export function costUsd(usage: Usage, prices: TokenPrices): number | null {
  const { inputPricePerMtok, outputPricePerMtok } = prices;
  if (inputPricePerMtok === null || outputPricePerMtok === null) return null;
  const within = (count: number | undefined, limit: number) => Math.min(Math.max(count ?? 0, 0), limit);
  const read = within(usage.cachedInputTokens, usage.inputTokens);
  const written = within(usage.cacheWriteTokens, usage.inputTokens - read);
  const writtenLong = within(usage.cacheWrite1hTokens, written);
  const writePrice = prices.cacheWritePricePerMtok ?? inputPricePerMtok;
  const usd =
    ((usage.inputTokens - read - written) * inputPricePerMtok +
      read * (prices.cachedInputPricePerMtok ?? inputPricePerMtok) +
      (written - writtenLong) * writePrice +
      writtenLong * (prices.cacheWrite1hPricePerMtok ?? writePrice) +
      usage.outputTokens * outputPricePerMtok) /
    1e6;
  return roundUsd(usd);
}

/** To the nano-dollar: what every stored cost is, so sums of them are shown without float noise. */
export function roundUsd(usd: number): number {
  return Math.round(usd * COST_SCALE) / COST_SCALE;
}
