import type { AnswerPart, CanonicalResponse, FinishReason, ReasoningPart } from '../../canonical/types';
import { formatId } from '../common/ids';
import { parseArgumentsObject } from '../common/json';
import { type MessagesUsage, messagesUsage } from './usage';

export type MessagesStopReason = 'end_turn' | 'max_tokens' | 'tool_use' | 'stop_sequence' | 'refusal';

export type MessagesBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'thinking'; thinking: string; signature: string }
  /** Anthropic's own block, as its API sent it (thinking, redacted_thinking, server tools…). */
  | Record<string, unknown>;

export interface MessagesBody {
  id: string;
  type: 'message';
  role: 'assistant';
  content: MessagesBlock[];
  model: string;
  stop_reason: MessagesStopReason;
  stop_sequence: null;
  usage: MessagesUsage;
}

const STOP_REASONS: Record<FinishReason, MessagesStopReason> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  // Anthropic's own word for a response the model declined or a filter stopped.
  content_filter: 'refusal',
  error: 'end_turn',
};

export function messagesStopReason(reason: FinishReason): MessagesStopReason {
  return STOP_REASONS[reason];
}

export function messagesToolUseId(canonicalId: string): string {
  return formatId('toolu_', canonicalId);
}

export function messagesMessageId(canonicalId: string): string {
  return formatId('msg_', canonicalId);
}

/**
 * Reasoning goes out as Anthropic's own block when Anthropic produced it, else as a thinking
 * block whose signature is the gateway's seal of the vendor's form (empty when the vendor gave
 * none to restore: a plain text summary).
 */
export function messagesThinkingBlock(part: ReasoningPart): MessagesBlock {
  if (part.opaque?.vendor === 'anthropic') return part.opaque.data;
  return { type: 'thinking', thinking: part.text, signature: part.sealed ?? '' };
}

function messagesBlock(part: AnswerPart): MessagesBlock {
  if (part.type === 'text') return { type: 'text', text: part.text };
  if (part.type === 'reasoning') return messagesThinkingBlock(part);
  return {
    type: 'tool_use',
    id: messagesToolUseId(part.id),
    name: part.name,
    input: parseArgumentsObject(part.arguments),
  };
}

export function renderMessagesResponse(response: CanonicalResponse, clientModel: string): MessagesBody {
  const content = response.content.map(messagesBlock);
  return {
    id: messagesMessageId(response.id),
    type: 'message',
    role: 'assistant',
    content,
    model: clientModel,
    stop_reason: messagesStopReason(response.finishReason),
    stop_sequence: null,
    usage: messagesUsage(response.usage),
  };
}
