import type { PassthroughPlan } from '../../canonical/ports';
import type { Usage } from '../../canonical/types';
import {
  createNativeUsageReader,
  type NativeUsageReader,
  parseJsonData,
  type UsageObserver,
} from '../common/native-usage-reader';
import { isRecord, mergeUsage, tokenCount, uncachedInputTokens } from '../common/usage';

export interface MessagesUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
  /** Cache writes by lifetime, as Anthropic splits them. */
  cache_creation?: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
  /** Thinking tokens within output_tokens (Anthropic's thinking-token-count field). */
  output_tokens_details?: { thinking_tokens: number };
}

/**
 * Canonical → wire. Anthropic's input_tokens exclude cache reads and writes (they are reported
 * beside them), while canonical inputTokens include them.
 */
export function messagesUsage(usage: Usage): MessagesUsage {
  const out: MessagesUsage = { input_tokens: uncachedInputTokens(usage), output_tokens: usage.outputTokens };
  if (usage.cachedInputTokens !== undefined) out.cache_read_input_tokens = usage.cachedInputTokens;
  const written = usage.cacheWriteTokens;
  if (written !== undefined) {
    const longLived = usage.cacheWrite1hTokens ?? 0;
    out.cache_creation_input_tokens = written;
    out.cache_creation = {
      ephemeral_5m_input_tokens: Math.max(0, written - longLived),
      ephemeral_1h_input_tokens: longLived,
    };
  }
  if (usage.reasoningTokens !== undefined)
    out.output_tokens_details = { thinking_tokens: usage.reasoningTokens };
  return out;
}

/**
 * Wire → canonical: input = uncached + cache reads + cache writes. Either count may be
 * missing (message_start has no output yet worth trusting; message_delta may omit input).
 */
export function messagesUsageFrom(usage: unknown): Partial<Usage> | null {
  if (!isRecord(usage)) return null;
  const input = tokenCount(usage.input_tokens);
  const cacheRead = tokenCount(usage.cache_read_input_tokens);
  const cacheWrite = tokenCount(usage.cache_creation_input_tokens);
  const out: Partial<Usage> = {};
  if (input !== undefined) out.inputTokens = input + (cacheRead ?? 0) + (cacheWrite ?? 0);
  const output = tokenCount(usage.output_tokens);
  if (output !== undefined) out.outputTokens = output;
  if (cacheRead !== undefined) out.cachedInputTokens = cacheRead;
  if (cacheWrite !== undefined && cacheWrite > 0) {
    out.cacheWriteTokens = cacheWrite;
    const byLifetime = usage.cache_creation;
    const longLived = isRecord(byLifetime) ? tokenCount(byLifetime.ephemeral_1h_input_tokens) : undefined;
    if (longLived !== undefined && longLived > 0) out.cacheWrite1hTokens = longLived;
  }
  const details = usage.output_tokens_details;
  const thinking = isRecord(details) ? tokenCount(details.thinking_tokens) : undefined;
  if (thinking !== undefined && thinking > 0) out.reasoningTokens = thinking;
  return out;
}

/** A report with at least one of the two counts, the other 0 until a later report says. */
export function completeUsage(partial: Partial<Usage> | null): Usage | null {
  if (partial?.inputTokens === undefined && partial?.outputTokens === undefined) return null;
  return { ...partial, inputTokens: partial.inputTokens ?? 0, outputTokens: partial.outputTokens ?? 0 };
}

/** Usage from a native non-streaming Messages body (passthrough). */
export function messagesUsageFromResponse(body: unknown): Usage | null {
  return isRecord(body) ? completeUsage(messagesUsageFrom(body.usage)) : null;
}

function streamUsage(data: unknown): Usage | null {
  if (!isRecord(data)) return null;
  if (data.type === 'message_start' && isRecord(data.message))
    return completeUsage(messagesUsageFrom(data.message.usage));
  if (data.type === 'message_delta') return completeUsage(messagesUsageFrom(data.usage));
  return null;
}

/**
 * Usage from native Messages SSE bytes: input (and cache) counts from message_start, the
 * output count from message_delta (which may repeat the input counts). Bytes pass through.
 */
export const messagesStreamUsage: UsageObserver = (event, current) => {
  const usage = streamUsage(parseJsonData(event.data));
  return usage === null ? current : mergeUsage(current, usage);
};

export function createMessagesNativeUsageReader(plan?: PassthroughPlan): NativeUsageReader {
  return createNativeUsageReader(messagesStreamUsage, {
    drop: plan?.dropEvent,
    clientModel: plan?.clientModel,
  });
}
