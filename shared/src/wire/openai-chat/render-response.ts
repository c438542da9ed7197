import type {
  AnswerPart,
  CanonicalRequest,
  CanonicalResponse,
  FinishReason,
  Usage,
} from '../../canonical/types';
import { customInput } from '../common/custom-tools';
import { formatId, nowSeconds } from '../common/ids';
import { type CallShape, callShapes } from '../common/tool-shapes';
import { cacheWriteDetail } from '../common/usage';
import { sealedCallId } from './sealed-ids';

export type ChatFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

export type ChatToolCall =
  | { id: string; type: 'function'; function: { name: string; arguments: string } }
  | { id: string; type: 'custom'; custom: { name: string; input: string } };

/** The gateway's seal of a vendor's reasoning, which a chat client may send back to restore it. */
export interface ChatReasoningDetail {
  type: 'reasoning.encrypted';
  data: string;
  format: 'sluice';
}

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** cache_write_tokens: prompt-cache writes, which OpenAI does not charge but other vendors do. */
  prompt_tokens_details?: { cached_tokens: number; cache_write_tokens?: number };
  completion_tokens_details?: { reasoning_tokens: number };
}

export interface ChatCompletionBody {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: Array<{
    index: 0;
    message: {
      role: 'assistant';
      content: string | null;
      tool_calls?: ChatToolCall[];
      refusal: null;
      reasoning_content?: string;
      reasoning_details?: ChatReasoningDetail[];
    };
    finish_reason: ChatFinishReason;
    logprobs: null;
  }>;
  usage: ChatUsage;
}

/** Chat has no finish reason for a failed generation; `stop` is what clients handle. */
export function chatFinishReason(reason: FinishReason): ChatFinishReason {
  return reason === 'error' ? 'stop' : reason;
}

export function chatUsage(usage: Usage): ChatUsage {
  const out: ChatUsage = {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
  if (usage.cachedInputTokens !== undefined || usage.cacheWriteTokens !== undefined) {
    out.prompt_tokens_details = { cached_tokens: usage.cachedInputTokens ?? 0, ...cacheWriteDetail(usage) };
  }
  if (usage.reasoningTokens !== undefined) {
    out.completion_tokens_details = { reasoning_tokens: usage.reasoningTokens };
  }
  return out;
}

/** Calls of the client's custom (freeform) tools go back as `custom` calls, the rest as functions. */
export function chatToolCall(
  part: Extract<AnswerPart, { type: 'tool_call' }>,
  shapeOf: (name: string) => CallShape,
  sealed?: string,
): ChatToolCall {
  const id = sealedCallId(chatToolCallId(part.id), sealed);
  if (shapeOf(part.name).kind !== 'custom')
    return { id, type: 'function', function: { name: part.name, arguments: part.arguments } };
  return { id, type: 'custom', custom: { name: part.name, input: customInput(part.arguments) } };
}

type ReasoningFields = Pick<
  ChatCompletionBody['choices'][number]['message'],
  'reasoning_content' | 'reasoning_details'
>;

/**
 * Reasoning as chat clients read it: its text and its seals to send back (`fields`), and the
 * first seal, which the turn's first tool call carries too (sealed-ids.ts).
 */
export function chatReasoning(content: AnswerPart[]): { fields: ReasoningFields; firstSeal?: string } {
  const parts = content.flatMap((part) => (part.type === 'reasoning' ? [part] : []));
  if (parts.length === 0) return { fields: {} };
  const details = parts.flatMap((part): ChatReasoningDetail[] =>
    part.sealed ? [{ type: 'reasoning.encrypted', data: part.sealed, format: 'sluice' }] : [],
  );
  const text = parts.map((part) => part.text).join('');
  if (details.length === 0) return { fields: { reasoning_content: text } };
  return { fields: { reasoning_content: text, reasoning_details: details }, firstSeal: details[0]?.data };
}

export function chatToolCallId(canonicalId: string): string {
  return formatId('call_', canonicalId);
}

export function renderChatCompletion(
  response: CanonicalResponse,
  clientModel: string,
  created: number = nowSeconds(),
  request?: CanonicalRequest,
): ChatCompletionBody {
  const shapeOf = callShapes(request);
  const texts = response.content.flatMap((part) => (part.type === 'text' ? [part.text] : []));
  const reasoning = chatReasoning(response.content);
  // Only the first tool call carries the seal (sealed-ids.ts).
  let sealed = reasoning.firstSeal;
  const toolCalls: ChatToolCall[] = response.content.flatMap((part) => {
    if (part.type !== 'tool_call') return [];
    const call = chatToolCall(part, shapeOf, sealed);
    sealed = undefined;
    return [call];
  });
  // OpenAI sends null content beside tool calls and '' for an empty answer.
  const content = texts.length > 0 ? texts.join('') : toolCalls.length > 0 ? null : '';
  return {
    id: formatId('chatcmpl-', response.id),
    object: 'chat.completion',
    created,
    model: clientModel,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
          refusal: null,
          ...reasoning.fields,
        },
        finish_reason: chatFinishReason(response.finishReason),
        logprobs: null,
      },
    ],
    usage: chatUsage(response.usage),
  };
}
