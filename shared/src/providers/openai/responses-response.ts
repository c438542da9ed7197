/**
 * Responses API `response` object → canonical response.
 *
 * Message items become text, function and custom tool calls become tool calls, and every other
 * item — reasoning with its encrypted content, a hosted tool's call (web_search_call, …) — is
 * kept whole as OpenAI's own reasoning part: a client gets it (sealed when of another format)
 * and sends it back, and it returns to OpenAI exactly as it came.
 */
import type {
  AnswerPart,
  CanonicalResponse,
  FinishReason,
  ReasoningPart,
  ToolCallPart,
  Usage,
} from '../../canonical/types';
import { customArguments } from '../../wire/common/custom-tools';
import { namespacedName } from '../../wire/common/tool-shapes';
import { responsesUsageFrom } from '../../wire/openai-responses/usage';
import { unreadableUpstreamResponse } from '../common/errors';
import { asArray, asRecord, asString, type JsonObject } from '../common/json';

/** Summary parts are separate paragraphs of one reasoning text. */
export const SUMMARY_SEPARATOR = '\n\n';

/**
 * The terminal status, with whether the answer called tools (which a completed response
 * does not say itself) → canonical finish reason.
 */
export function responsesFinishReason(response: JsonObject, calledTools: boolean): FinishReason {
  switch (asString(response.status)) {
    case 'incomplete':
      return asString(asRecord(response.incomplete_details)?.reason) === 'content_filter'
        ? 'content_filter'
        : 'length';
    case 'failed':
    case 'cancelled':
      return 'error';
    default:
      return calledTools ? 'tool_calls' : 'stop';
  }
}

export function parseResponsesUsage(value: unknown): Usage {
  return responsesUsageFrom(value) ?? { inputTokens: 0, outputTokens: 0 };
}

/** What a reader may see of a reasoning item: its summary, else (open models) its reasoning text. */
export function reasoningText(item: JsonObject): string {
  const texts = (field: unknown): string[] =>
    asArray(field).flatMap((part) => {
      const text = asString(asRecord(part)?.text);
      return text ? [text] : [];
    });
  const summary = texts(item.summary);
  return (summary.length > 0 ? summary : texts(item.content)).join(SUMMARY_SEPARATOR);
}

/** Any item but text and tool calls, kept whole as OpenAI's own. */
export function openAiOpaquePart(item: JsonObject): ReasoningPart {
  const text = item.type === 'reasoning' ? reasoningText(item) : '';
  return { type: 'reasoning', text, opaque: { vendor: 'openai', data: item } };
}

/** A message's text; a refusal is the model's answer in its place and is kept visible. */
export function messageText(item: JsonObject): string {
  let text = '';
  for (const value of asArray(item.content)) {
    const part = asRecord(value);
    if (part?.type === 'output_text') text += asString(part.text) ?? '';
    else if (part?.type === 'refusal') text += asString(part.refusal) ?? '';
  }
  return text;
}

/** A call of a function declared in a `namespace` is `<namespace>__<name>` canonically. */
export function functionCallName(item: JsonObject): string {
  return namespacedName(asString(item.namespace), asString(item.name) ?? '');
}

function toolCall(item: JsonObject): ToolCallPart {
  const id = asString(item.call_id) ?? asString(item.id) ?? '';
  if (item.type === 'custom_tool_call') {
    const args = customArguments(asString(item.input) ?? '');
    return { type: 'tool_call', id, name: asString(item.name) ?? '', arguments: args };
  }
  return { type: 'tool_call', id, name: functionCallName(item), arguments: asString(item.arguments) ?? '' };
}

function contentOf(output: unknown[]): AnswerPart[] {
  const content: AnswerPart[] = [];
  for (const value of output) {
    const item = asRecord(value);
    if (!item) continue;
    if (item.type === 'message') {
      const text = messageText(item);
      if (text) content.push({ type: 'text', text });
    } else if (item.type === 'function_call' || item.type === 'custom_tool_call')
      content.push(toolCall(item));
    else content.push(openAiOpaquePart(item));
  }
  return content;
}

export function parseResponsesResponse(body: unknown): CanonicalResponse {
  const root = asRecord(body);
  if (!root || !Array.isArray(root.output)) throw unreadableUpstreamResponse('no response output');
  const content = contentOf(root.output);
  const calledTools = content.some((part) => part.type === 'tool_call');
  return {
    id: asString(root.id) ?? '',
    model: asString(root.model) ?? '',
    content,
    finishReason: responsesFinishReason(root, calledTools),
    usage: parseResponsesUsage(root.usage),
  };
}
