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
  const cached = Math.max(current.cachedInputTokens ?? -1, next.cachedInputTokens ?? -1);
  if (cached >= 0) merged.cachedInputTokens = cached;
  return merged;
}

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
  names: { input: string; output: string; inputDetails: string },
): Usage | null {
  if (!isRecord(usage)) return null;
  const inputTokens = tokenCount(usage[names.input]);
  const outputTokens = tokenCount(usage[names.output]);
  if (inputTokens === undefined || outputTokens === undefined) return null;
  const details = usage[names.inputDetails];
  const cached = isRecord(details) ? tokenCount(details.cached_tokens) : undefined;
  return cached === undefined
    ? { inputTokens, outputTokens }
    : { inputTokens, outputTokens, cachedInputTokens: cached };
}
