import type { CanonicalResponse, FinishReason, Usage } from '../../canonical/types';
import { formatId, nowSeconds } from '../common/ids';

export type ChatFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens: number };
}

export interface ChatCompletionBody {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: Array<{
    index: 0;
    message: { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[]; refusal: null };
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
  if (usage.cachedInputTokens !== undefined) {
    out.prompt_tokens_details = { cached_tokens: usage.cachedInputTokens };
  }
  return out;
}

export function chatToolCallId(canonicalId: string): string {
  return formatId('call_', canonicalId);
}

export function renderChatCompletion(
  response: CanonicalResponse,
  clientModel: string,
  created: number = nowSeconds(),
): ChatCompletionBody {
  const texts = response.content.flatMap((part) => (part.type === 'text' ? [part.text] : []));
  const toolCalls: ChatToolCall[] = response.content.flatMap((part) =>
    part.type === 'tool_call'
      ? [
          {
            id: chatToolCallId(part.id),
            type: 'function',
            function: { name: part.name, arguments: part.arguments },
          },
        ]
      : [],
  );
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
        },
        finish_reason: chatFinishReason(response.finishReason),
        logprobs: null,
      },
    ],
    usage: chatUsage(response.usage),
  };
}
