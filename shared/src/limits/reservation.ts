import type { TokenWeights } from '../logs/requests/cost';
import type { Counter } from './counters';
import type { CounterAddition } from './sliding-window';

/**
 * Limits that never overshoot: a request's tokens are only known once it has run, so token
 * rules and budgets checked against what was used let every request in flight together pass a
 * limit with one token left. Instead, admission reserves what the request may use — its prompt
 * (estimated) and its output up to `max_tokens`, at most `token_reservation_output_tokens` —
 * on every token rule and budget, in the same script that checks them; the settlement after the
 * response gives the reservation back and counts the real tokens, in the same ADD call; a
 * failed or abandoned request gives it back with whatever it did use.
 *
 * The reservation goes back to the bucket (or period) it was taken in: given back in a later
 * bucket it would leave the window later than it came in, and undercount meanwhile.
 */
export interface TokenEstimate {
  /** The prompt, estimated (proxy/estimate-tokens.ts). */
  inputTokens: number;
  /** What the request caps its output at (max_tokens and kin); null: it names no cap. */
  maxOutputTokens: number | null;
}

/** Weighted tokens to reserve: the prompt and the output the request may produce, by the model's weights. */
export function reservationTokens(
  estimate: TokenEstimate,
  weights: TokenWeights,
  outputCeiling: number,
): number {
  const output = Math.min(estimate.maxOutputTokens ?? outputCeiling, outputCeiling);
  return Math.ceil(estimate.inputTokens * weights.inputWeight + Math.max(0, output) * weights.outputWeight);
}

/** What an admitted request reserved: the counters that counted it, as they were then. */
export function reservedOn(counters: readonly Counter[]): CounterAddition[] {
  const reserved: CounterAddition[] = [];
  for (const c of counters) {
    if (c.meta.kind !== 'tokens' || !(c.cost > 0)) continue;
    reserved.push({
      key: c.key,
      current: c.current,
      bucketsInWindow: c.bucketsInWindow,
      expiryMs: c.expiryMs,
      amount: c.cost,
    });
  }
  return reserved;
}

/** The settlement's give-back: each reservation taken away again, in the bucket it went into. */
export function releases(reserved: readonly CounterAddition[]): CounterAddition[] {
  return reserved.map((r) => ({ ...r, amount: -r.amount }));
}
