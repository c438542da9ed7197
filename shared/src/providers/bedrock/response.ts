import type { CanonicalResponse, FinishReason, TextPart, ToolCallPart, Usage } from '../../canonical/types';
import { unreadableUpstreamResponse } from '../common/errors';
import { randomId } from '../common/ids';
import { countField, isRecord } from '../common/json';
import type { BedrockConverseResponse, BedrockOutputBlock, BedrockUsage } from './types';

/** Options shared by the response parser and the stream decoder. */
export interface BedrockDecodeOptions {
  /** Converse never names the model in its answer; the adapter passes the one it called. */
  model?: string;
  /** Id source; tests inject a deterministic one. */
  newId?: (prefix: string) => string;
}

const FINISH_REASONS: Readonly<Record<string, FinishReason>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  guardrail_intervened: 'content_filter',
  content_filtered: 'content_filter',
  malformed_model_output: 'error',
  malformed_tool_use: 'error',
};

export function bedrockFinishReason(stopReason: unknown): FinishReason {
  return (typeof stopReason === 'string' && FINISH_REASONS[stopReason]) || 'stop';
}

/**
 * Converse's `inputTokens` counts only uncached input, with cache reads and writes reported
 * beside it (the Anthropic convention); the canonical input total includes both, and
 * cached reads are its subset.
 */
export function bedrockUsage(usage: BedrockUsage | undefined): Usage {
  const cacheRead = countField(usage?.cacheReadInputTokens);
  const result: Usage = {
    inputTokens: countField(usage?.inputTokens) + cacheRead + countField(usage?.cacheWriteInputTokens),
    outputTokens: countField(usage?.outputTokens),
  };
  if (cacheRead > 0) result.cachedInputTokens = cacheRead;
  return result;
}

function toContent(
  block: BedrockOutputBlock,
  newId: (prefix: string) => string,
): TextPart | ToolCallPart | undefined {
  if (typeof block.text === 'string' && block.text !== '') return { type: 'text', text: block.text };
  const toolUse = block.toolUse;
  if (isRecord(toolUse) && typeof toolUse.name === 'string') {
    return {
      type: 'tool_call',
      id: toolUse.toolUseId || newId('tooluse_'),
      name: toolUse.name,
      arguments: JSON.stringify(toolUse.input ?? {}),
    };
  }
  // reasoningContent, citations and other block kinds have no canonical form.
  return undefined;
}

export function parseConverseResponse(body: unknown, options: BedrockDecodeOptions = {}): CanonicalResponse {
  if (!isRecord(body)) throw unreadableUpstreamResponse('Bedrock response is not a JSON object');
  // Vendor JSON at the trust boundary: read through optional chaining and array checks.
  const response = body as BedrockConverseResponse;
  const newId = options.newId ?? randomId;
  const blocks = response.output?.message?.content;
  const content: Array<TextPart | ToolCallPart> = [];
  for (const block of Array.isArray(blocks) ? blocks.filter(isRecord) : []) {
    const item = toContent(block, newId);
    if (item) content.push(item);
  }
  return {
    // Converse answers carry no id (only the x-amzn-requestid header), so one is made up.
    id: newId('msg_'),
    model: options.model ?? '',
    content,
    finishReason: bedrockFinishReason(response.stopReason),
    usage: bedrockUsage(response.usage),
  };
}
