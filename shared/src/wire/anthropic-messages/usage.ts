import type { Usage } from '../../canonical/types';
import {
  createNativeUsageReader,
  type NativeUsageReader,
  parseJsonData,
  type UsageObserver,
} from '../common/native-usage-reader';
import { isRecord, mergeUsage, tokenCount } from '../common/usage';

export interface MessagesUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens?: number;
}

/**
 * Canonical → wire. Anthropic's input_tokens exclude cache reads (they are reported beside
 * them), while canonical inputTokens include them.
 */
export function messagesUsage(usage: Usage): MessagesUsage {
  const cached = usage.cachedInputTokens;
  if (cached === undefined) return { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens };
  return {
    input_tokens: Math.max(0, usage.inputTokens - cached),
    output_tokens: usage.outputTokens,
    cache_read_input_tokens: cached,
  };
}

/**
 * Wire → canonical: input = uncached + cache reads + cache writes. Either count may be
 * missing (message_start has no output yet worth trusting; message_delta may omit input).
 */
export function messagesUsageFrom(usage: unknown): Partial<Usage> | null {
  if (!isRecord(usage)) return null;
  const input = tokenCount(usage.input_tokens);
  const cacheRead = tokenCount(usage.cache_read_input_tokens);
  const cacheWrite = tokenCount(usage.cache_creation_input_tokens) ?? 0;
  const out: Partial<Usage> = {};
  if (input !== undefined) out.inputTokens = input + (cacheRead ?? 0) + cacheWrite;
  const output = tokenCount(usage.output_tokens);
  if (output !== undefined) out.outputTokens = output;
  if (cacheRead !== undefined) out.cachedInputTokens = cacheRead;
  return out;
}

function complete(partial: Partial<Usage> | null): Usage | null {
  if (partial?.inputTokens === undefined && partial?.outputTokens === undefined) return null;
  const usage: Usage = { inputTokens: partial.inputTokens ?? 0, outputTokens: partial.outputTokens ?? 0 };
  if (partial.cachedInputTokens !== undefined) usage.cachedInputTokens = partial.cachedInputTokens;
  return usage;
}

/** Usage from a native non-streaming Messages body (passthrough). */
export function messagesUsageFromResponse(body: unknown): Usage | null {
  return isRecord(body) ? complete(messagesUsageFrom(body.usage)) : null;
}

function streamUsage(data: unknown): Usage | null {
  if (!isRecord(data)) return null;
  if (data.type === 'message_start' && isRecord(data.message))
    return complete(messagesUsageFrom(data.message.usage));
  if (data.type === 'message_delta') return complete(messagesUsageFrom(data.usage));
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

export function createMessagesNativeUsageReader(): NativeUsageReader {
  return createNativeUsageReader(messagesStreamUsage);
}
