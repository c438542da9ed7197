import type { Usage } from '../canonical/types';

export interface TokenWeights {
  inputWeight: number;
  outputWeight: number;
}

export interface TokenPrices {
  /** USD per million input tokens; null means unpriced. */
  inputPricePerMtok: number | null;
  /** USD per million output tokens; null means unpriced. */
  outputPricePerMtok: number | null;
}

/** Cost is kept to the nano-dollar: enough for any per-token price, and it hides float noise. */
const COST_SCALE = 1e9;

/** What limits and budgets count: input and output tokens by the model's weights, rounded. */
export function weightedTokens(usage: Usage, weights: TokenWeights): number {
  return Math.round(usage.inputTokens * weights.inputWeight + usage.outputTokens * weights.outputWeight);
}

/**
 * The request's cost in USD from the model's per-million-token prices, rounded to 1e-9 USD.
 * Null when either price is missing: an unpriced model is recorded as such, never as 0.
 */
export function costUsd(usage: Usage, prices: TokenPrices): number | null {
  const { inputPricePerMtok, outputPricePerMtok } = prices;
  if (inputPricePerMtok === null || outputPricePerMtok === null) return null;
  const usd = (usage.inputTokens / 1e6) * inputPricePerMtok + (usage.outputTokens / 1e6) * outputPricePerMtok;
  return Math.round(usd * COST_SCALE) / COST_SCALE;
}
