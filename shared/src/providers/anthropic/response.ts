/**
 * Messages API response body → canonical response.
 */
import type { CanonicalResponse, FinishReason, TextPart, ToolCallPart, Usage } from '../../canonical/types';
import { unreadableUpstreamResponse } from '../common/errors';
import { asArray, asNumber, asRecord, asString } from '../common/json';

const STOP_REASONS: Readonly<Record<string, FinishReason>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  // The server paused a long-running turn; what was produced is a complete response.
  pause_turn: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
};

export function mapAnthropicStopReason(reason: string | undefined): FinishReason {
  return (reason !== undefined && STOP_REASONS[reason]) || 'stop';
}

/**
 * Anthropic's `input_tokens` counts only the uncached remainder of the prompt; cache reads
 * and cache writes are reported beside it. Canonical inputTokens is the whole prompt (as
 * OpenAI reports it), with cache reads as the cached subset.
 */
export function parseAnthropicUsage(value: unknown): Usage {
  const usage = asRecord(value);
  const cacheRead = asNumber(usage?.cache_read_input_tokens) ?? 0;
  const cacheWrite = asNumber(usage?.cache_creation_input_tokens) ?? 0;
  return {
    inputTokens: (asNumber(usage?.input_tokens) ?? 0) + cacheRead + cacheWrite,
    outputTokens: asNumber(usage?.output_tokens) ?? 0,
    cachedInputTokens: cacheRead,
  };
}

/** Text and tool_use blocks carry over; thinking and server-tool blocks have no canonical form. */
function contentOf(blocks: unknown[]): Array<TextPart | ToolCallPart> {
  const content: Array<TextPart | ToolCallPart> = [];
  for (const value of blocks) {
    const block = asRecord(value);
    if (block?.type === 'text') {
      const text = asString(block.text);
      if (text) content.push({ type: 'text', text });
    } else if (block?.type === 'tool_use') {
      content.push({
        type: 'tool_call',
        id: asString(block.id) ?? '',
        name: asString(block.name) ?? '',
        arguments: JSON.stringify(block.input ?? {}),
      });
    }
  }
  return content;
}

export function parseAnthropicResponse(body: unknown): CanonicalResponse {
  const root = asRecord(body);
  if (!root || !Array.isArray(root.content)) throw unreadableUpstreamResponse('no message content');
  return {
    id: asString(root.id) ?? '',
    model: asString(root.model) ?? '',
    content: contentOf(asArray(root.content)),
    finishReason: mapAnthropicStopReason(asString(root.stop_reason)),
    usage: parseAnthropicUsage(root.usage),
  };
}
