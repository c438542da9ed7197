import type { Usage } from '../../canonical/types';
import { isRecord } from '../../util/json';

export { isRecord };

/**
 * Combines two usage reports field by field, keeping the larger count. Vendors report running
 * totals (Anthropic: input at message_start, output at message_delta), so the maximum is the
 * total whichever order they arrive in and however many times each is repeated.
 */
export function mergeUsage(current: Usage | null, next: Usage): Usage {
  if (current === null) return { ...next };
  const merged: Usage = {
    inputTokens: Math.max(current.inputTokens, next.inputTokens),
    outputTokens: Math.max(current.outputTokens, next.outputTokens),
  };
  for (const field of OPTIONAL_COUNTS) {
    const value = Math.max(current[field] ?? -1, next[field] ?? -1);
    if (value >= 0) merged[field] = value;
  }
  return merged;
}

/** The counts a report may leave out (each a subset of input or output). */
const OPTIONAL_COUNTS = [
  'cachedInputTokens',
  'cacheWriteTokens',
  'cacheWrite1hTokens',
  'reasoningTokens',
] as const;

/** Non-negative integer or undefined: usage fields come from untrusted JSON. */
export function tokenCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : undefined;
}

/**
 * An OpenAI usage object. Chat Completions and Responses name the counts differently but
 * agree on the rest: input includes the cache hits, which its details give as cached_tokens.
 */
export function openAiUsageFrom(
  usage: unknown,
  names: { input: string; output: string; inputDetails: string; outputDetails: string },
): Usage | null {
  if (!isRecord(usage)) return null;
  const inputTokens = tokenCount(usage[names.input]);
  const outputTokens = tokenCount(usage[names.output]);
  if (inputTokens === undefined || outputTokens === undefined) return null;
  const out: Usage = { inputTokens, outputTokens };
  const inputDetails = usage[names.inputDetails];
  const outputDetails = usage[names.outputDetails];
  const cached = isRecord(inputDetails) ? tokenCount(inputDetails.cached_tokens) : undefined;
  // OpenAI charges no cache writes; a compatible server (or the gateway itself) may report them.
  const written = isRecord(inputDetails) ? tokenCount(inputDetails.cache_write_tokens) : undefined;
  const reasoning = isRecord(outputDetails) ? tokenCount(outputDetails.reasoning_tokens) : undefined;
  if (cached !== undefined) out.cachedInputTokens = cached;
  if (written !== undefined && written > 0) out.cacheWriteTokens = written;
  if (reasoning !== undefined && reasoning > 0) out.reasoningTokens = reasoning;
  return out;
}

/**
 * `cache_write_tokens` of an OpenAI-shaped input details object: prompt-cache writes, which
 * OpenAI does not charge but other vendors do; left out when there were none.
 */
export function cacheWriteDetail(usage: Usage): { cache_write_tokens?: number } {
  const written = usage.cacheWriteTokens;
  return written !== undefined && written > 0 ? { cache_write_tokens: written } : {};
}

/** The input tokens neither read from nor written to a prompt cache. */
export function uncachedInputTokens(usage: Usage): number {
  return Math.max(0, usage.inputTokens - (usage.cachedInputTokens ?? 0) - (usage.cacheWriteTokens ?? 0));
}
