import type { Usage } from '../../canonical/types';

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

export { isRecord } from '../../util/json';
