/**
 * Messages API response body → canonical response.
 */
import type {
  AnswerPart,
  CanonicalResponse,
  FinishReason,
  ReasoningPart,
  Usage,
} from '../../canonical/types';
import { completeUsage, messagesUsageFrom } from '../../wire/anthropic-messages/usage';
import { unreadableUpstreamResponse } from '../common/errors';
import { asArray, asRecord, asString, type JsonObject } from '../common/json';

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
  // An own entry only: an unknown reason (or one named like Object's members) is a plain stop.
  return reason !== undefined && Object.hasOwn(STOP_REASONS, reason)
    ? (STOP_REASONS[reason] ?? 'stop')
    : 'stop';
}

/**
 * Anthropic's `input_tokens` counts only the uncached remainder of the prompt; cache reads
 * and cache writes are reported beside it. Canonical inputTokens is the whole prompt (as
 * OpenAI reports it), with reads and writes as its subsets (the Messages wire format's reader).
 */
export function parseAnthropicUsage(value: unknown): Usage {
  return completeUsage(messagesUsageFrom(value)) ?? { inputTokens: 0, outputTokens: 0 };
}

/**
 * Blocks that are neither text nor a client tool call (thinking, redacted thinking, server
 * tool use and results) are kept whole as Anthropic's own reasoning-like parts: a client of
 * another format gets them sealed and sends them back, and they go back to Anthropic as they were.
 */
export function anthropicOpaquePart(block: JsonObject): ReasoningPart {
  const text = block.type === 'thinking' ? (asString(block.thinking) ?? '') : '';
  return { type: 'reasoning', text, opaque: { vendor: 'anthropic', data: block } };
}

function contentOf(blocks: unknown[]): AnswerPart[] {
  const content: AnswerPart[] = [];
  for (const value of blocks) {
    const block = asRecord(value);
    if (!block) continue;
    if (block.type === 'text') {
      const text = asString(block.text);
      if (text) content.push({ type: 'text', text });
    } else if (block.type === 'tool_use') {
      content.push({
        type: 'tool_call',
        id: asString(block.id) ?? '',
        name: asString(block.name) ?? '',
        arguments: JSON.stringify(block.input ?? {}),
      });
    } else content.push(anthropicOpaquePart(block));
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
