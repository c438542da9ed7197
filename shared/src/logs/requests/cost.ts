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
 * Every provider reports cached input tokens as a subset of inputTokens (canonical Usage), so
 * they are billed once: at the cached price when there is one, the rest at the input price.
 */
export function costUsd(usage: Usage, prices: TokenPrices): number | null {
  const { inputPricePerMtok, outputPricePerMtok } = prices;
  if (inputPricePerMtok === null || outputPricePerMtok === null) return null;
  const cached = Math.min(Math.max(usage.cachedInputTokens ?? 0, 0), usage.inputTokens);
  const cachedPrice = prices.cachedInputPricePerMtok ?? inputPricePerMtok;
  const usd =
    ((usage.inputTokens - cached) * inputPricePerMtok +
      cached * cachedPrice +
      usage.outputTokens * outputPricePerMtok) /
    1e6;
  return roundUsd(usd);
}

/** To the nano-dollar: what every stored cost is, so sums of them are shown without float noise. */
export function roundUsd(usd: number): number {
  return Math.round(usd * COST_SCALE) / COST_SCALE;
}
