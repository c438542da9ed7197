import type { AnswerPart, CanonicalResponse, FinishReason, Usage } from '../../canonical/types';
import { unreadableUpstreamResponse } from '../common/errors';
import { randomId } from '../common/ids';
import { asArray, asRecord, countField, isRecord, type JsonObject } from '../common/json';
import { bedrockReasoningPart } from './reasoning';
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

/** Tokens written with the one-hour lifetime, from the per-lifetime breakdown. */
function hourLongWrites(details: unknown): number {
  let total = 0;
  for (const detail of asArray(details)) {
    const record = asRecord(detail);
    if (record?.ttl === '1h') total += countField(record.inputTokens);
  }
  return total;
}

/**
 * Converse's `inputTokens` counts only uncached input, with cache reads and writes reported
 * beside it (the Anthropic convention); the canonical input total includes both, and reads
 * and writes are its subsets. The same object comes in answers and in the stream's metadata.
 */
export function bedrockUsage(usage: BedrockUsage | undefined): Usage {
  const cacheRead = countField(usage?.cacheReadInputTokens);
  const cacheWrite = countField(usage?.cacheWriteInputTokens);
  const result: Usage = {
    inputTokens: countField(usage?.inputTokens) + cacheRead + cacheWrite,
    outputTokens: countField(usage?.outputTokens),
  };
  if (cacheRead > 0) result.cachedInputTokens = cacheRead;
  if (cacheWrite > 0) {
    result.cacheWriteTokens = cacheWrite;
    const hourLong = hourLongWrites(usage?.cacheDetails);
    if (hourLong > 0) result.cacheWrite1hTokens = hourLong;
  }
  return result;
}

function toContent(
  block: BedrockOutputBlock & JsonObject,
  newId: (prefix: string) => string,
): AnswerPart | undefined {
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
  // Reasoning is kept whole; citations and other block kinds have no canonical form.
  return bedrockReasoningPart(block);
}

export function parseConverseResponse(body: unknown, options: BedrockDecodeOptions = {}): CanonicalResponse {
  if (!isRecord(body)) throw unreadableUpstreamResponse('Bedrock response is not a JSON object');
  // Vendor JSON at the trust boundary: read through optional chaining and array checks.
  const response = body as BedrockConverseResponse;
  const newId = options.newId ?? randomId;
  const blocks = response.output?.message?.content;
  const content: AnswerPart[] = [];
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
