/**
 * Chat Completions response body → canonical response.
 */
import type { AnswerPart, CanonicalResponse, FinishReason, ToolCallPart, Usage } from '../../canonical/types';
import { chatUsageFrom } from '../../wire/openai-chat/usage';
import { unreadableUpstreamResponse } from '../common/errors';
import { asArray, asRecord, asString, type JsonObject } from '../common/json';

const FINISH_REASONS: Readonly<Record<string, FinishReason>> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool_calls',
  // The pre-tools name for the same thing; some compatible servers still send it.
  function_call: 'tool_calls',
  content_filter: 'content_filter',
};

/** Unknown or missing reasons read as a normal stop: the answer itself is complete. */
export function mapOpenAiFinishReason(reason: string | undefined): FinishReason {
  return (reason !== undefined && FINISH_REASONS[reason]) || 'stop';
}

/**
 * The chat format's own reader (prompt_tokens already includes cached tokens, so canonical
 * inputTokens is the total; reasoning tokens are a part of completion_tokens).
 */
export function parseOpenAiUsage(value: unknown): Usage {
  return chatUsageFrom(value) ?? { inputTokens: 0, outputTokens: 0 };
}

/**
 * The reasoning text some OpenAI-compatible servers return beside the answer (DeepSeek's and
 * vLLM's `reasoning_content`, `reasoning` elsewhere). Text only: there is nothing to send back.
 */
export function chatReasoningText(message: JsonObject): string | undefined {
  return asString(message.reasoning_content) ?? asString(message.reasoning);
}

function toolCallOf(value: unknown): ToolCallPart | undefined {
  const call = asRecord(value);
  const fn = asRecord(call?.function);
  if (!call || !fn) return undefined; // non-function (custom) tools are never offered upstream
  return {
    type: 'tool_call',
    id: asString(call.id) ?? '',
    name: asString(fn.name) ?? '',
    arguments: asString(fn.arguments) ?? '',
  };
}

function contentOf(message: JsonObject): AnswerPart[] {
  const content: AnswerPart[] = [];
  const reasoning = chatReasoningText(message);
  if (reasoning) content.push({ type: 'reasoning', text: reasoning });
  // A refusal is the model's answer in place of content; keep it visible to the caller.
  const text = asString(message.content) || asString(message.refusal);
  if (text) content.push({ type: 'text', text });
  for (const value of asArray(message.tool_calls)) {
    const call = toolCallOf(value);
    if (call) content.push(call);
  }
  return content;
}

export function parseOpenAiResponse(body: unknown): CanonicalResponse {
  const root = asRecord(body);
  const choice = asRecord(asArray(root?.choices)[0]);
  const message = asRecord(choice?.message);
  if (!root || !choice || !message) throw unreadableUpstreamResponse('no choices[0].message');
  return {
    id: asString(root.id) ?? '',
    model: asString(root.model) ?? '',
    content: contentOf(message),
    finishReason: mapOpenAiFinishReason(asString(choice.finish_reason)),
    usage: parseOpenAiUsage(root.usage),
  };
}
