import type { CanonicalResponse, FinishReason, TextPart, ToolCallPart, Usage } from '../../canonical/types';
import { unreadableUpstreamResponse } from '../common/errors';
import { randomId } from '../common/ids';
import { countField, isRecord } from '../common/json';
import type { GeminiCandidate, GeminiPart, GeminiResponse, GeminiUsageMetadata } from './types';

/** Options shared by the response parser and the stream decoder. */
export interface GeminiDecodeOptions {
  /** The model asked for, used when the answer names none. */
  model?: string;
  /** Id source; tests inject a deterministic one. */
  newId?: (prefix: string) => string;
}

const CONTENT_FILTER_REASONS = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
]);
const ERROR_REASONS = new Set(['MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL', 'TOO_MANY_TOOL_CALLS']);

/**
 * Gemini says STOP after function calls too (it has no tool-use reason), so a call seen in
 * the answer turns STOP into tool_calls. Unknown and neutral reasons (OTHER, LANGUAGE, …)
 * count as stop; a blocked prompt (no candidate, `promptFeedback.blockReason`) as a filter.
 */
export function geminiFinishReason(reason: string | undefined, sawToolCall: boolean): FinishReason {
  if (reason === 'MAX_TOKENS') return 'length';
  if (reason !== undefined && CONTENT_FILTER_REASONS.has(reason)) return 'content_filter';
  if (reason !== undefined && ERROR_REASONS.has(reason)) return 'error';
  return sawToolCall ? 'tool_calls' : 'stop';
}

/**
 * promptTokenCount already includes cached tokens, so cachedContentTokenCount is the
 * subset the canonical type expects. Thinking tokens are billed as output; tool-use prompt
 * tokens (built-in tools) as input.
 */
export function geminiUsage(meta: GeminiUsageMetadata | undefined): Usage {
  const usage: Usage = {
    inputTokens: countField(meta?.promptTokenCount) + countField(meta?.toolUsePromptTokenCount),
    outputTokens: countField(meta?.candidatesTokenCount) + countField(meta?.thoughtsTokenCount),
  };
  const cached = countField(meta?.cachedContentTokenCount);
  if (cached > 0) usage.cachedInputTokens = cached;
  return usage;
}

/** A visible part as canonical content; thought summaries and unknown part kinds are skipped. */
export function geminiPartContent(
  part: GeminiPart,
  newId: (prefix: string) => string,
): TextPart | ToolCallPart | undefined {
  if (part.thought) return undefined;
  if (part.functionCall) {
    const { id, name, args } = part.functionCall;
    return { type: 'tool_call', id: id || newId('call_'), name, arguments: JSON.stringify(args ?? {}) };
  }
  if (typeof part.text === 'string' && part.text !== '') return { type: 'text', text: part.text };
  return undefined;
}

export function firstCandidate(response: GeminiResponse): GeminiCandidate | undefined {
  const first: unknown = Array.isArray(response.candidates) ? response.candidates[0] : undefined;
  return isRecord(first) ? first : undefined;
}

export function partsOf(candidate: GeminiCandidate | undefined): GeminiPart[] {
  const parts = candidate?.content?.parts;
  return Array.isArray(parts) ? parts.filter(isRecord) : [];
}

export function parseGeminiResponse(body: unknown, options: GeminiDecodeOptions = {}): CanonicalResponse {
  if (!isRecord(body)) throw unreadableUpstreamResponse('Gemini response is not a JSON object');
  // Vendor JSON at the trust boundary: read through optional chaining and array checks.
  const response = body as GeminiResponse;
  const newId = options.newId ?? randomId;
  const candidate = firstCandidate(response);
  const content: Array<TextPart | ToolCallPart> = [];
  for (const part of partsOf(candidate)) {
    const item = geminiPartContent(part, newId);
    const last = content.at(-1);
    // Gemini may split one answer into several text parts; canonical keeps one block.
    if (item?.type === 'text' && last?.type === 'text') last.text += item.text;
    else if (item) content.push(item);
  }
  const sawToolCall = content.some((item) => item.type === 'tool_call');
  const blocked = candidate === undefined && response.promptFeedback?.blockReason !== undefined;
  return {
    id: response.responseId || newId('gen_'),
    model: response.modelVersion || options.model || '',
    content,
    finishReason: blocked ? 'content_filter' : geminiFinishReason(candidate?.finishReason, sawToolCall),
    usage: geminiUsage(response.usageMetadata),
  };
}
