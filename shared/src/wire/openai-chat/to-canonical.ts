import { isReasoningEffort, isSealed } from '../../canonical/reasoning';
import type {
  CanonicalMessage,
  CanonicalRequest,
  ContentPart,
  ReasoningPart,
  ResponseFormat,
  TextPart,
  ToolChoice,
  ToolDefinition,
} from '../../canonical/types';
import { appendMessage, compact, hostedTool, textPart, vendorPart } from '../common/conversation';
import { customArguments } from '../common/custom-tools';
import { imageFromUrl } from '../common/images';
import { parseBody } from '../common/validate';
import { isPlainChatRequest } from './plain-request';
import {
  type ChatMessage,
  type ChatRequest,
  type ChatTool,
  type ChatUserContent,
  chatRequestSchema,
} from './request-schema';
import { splitCallId } from './sealed-ids';

type Nullish<T> = T | null | undefined;
const orUndefined = <T>(value: Nullish<T>): T | undefined => value ?? undefined;

function textParts(content: string | Array<{ text: string }>): TextPart[] {
  if (typeof content === 'string') return content === '' ? [] : [textPart(content)];
  return content.map((part) => textPart(part.text));
}

function userParts(content: ChatUserContent, field: string): ContentPart[] {
  if (typeof content === 'string') return [textPart(content)];
  return content.map((part, i): ContentPart => {
    const raw = part as Record<string, unknown>;
    if (part.type === 'text') return textPart(raw.text as string);
    if (part.type === 'image_url') {
      const url = (raw.image_url as { url: string }).url;
      return imageFromUrl(url, `${field}[${i}].image_url.url`);
    }
    return vendorPart('openai-chat', `${field}[${i}]`, raw);
  });
}

type AssistantMessage = Extract<ChatMessage, { role: 'assistant' }>;

/** Where the gateway's seal came back: `reasoning_details`, else the id of the turn's first tool call. */
function sealOf(message: AssistantMessage, field: string): { sealed: string; field: string } | undefined {
  const details = message.reasoning_details ?? [];
  const at = details.findIndex((detail) => isSealed(detail.data));
  const sealed = details[at]?.data;
  if (sealed !== undefined) return { sealed, field: `${field}.reasoning_details[${at}].data` };
  const calls = message.tool_calls ?? [];
  const onCall = calls.findIndex((call) => splitCallId(call.id).sealed !== undefined);
  const fromId = splitCallId(calls[onCall]?.id ?? '').sealed;
  return fromId === undefined ? undefined : { sealed: fromId, field: `${field}.tool_calls[${onCall}].id` };
}

/**
 * Reasoning a chat client sends back: the text it was shown (`reasoning_content`), and the
 * gateway's seal of the vendor's form, which lets it be restored (sealed-ids.ts).
 */
function reasoningParts(message: AssistantMessage, field: string): ReasoningPart[] {
  const text = message.reasoning_content ?? '';
  const seal = sealOf(message, field);
  if (seal) return [{ type: 'reasoning', text, ...seal }];
  return text === '' ? [] : [{ type: 'reasoning', text }];
}

function toolCallPart(call: NonNullable<AssistantMessage['tool_calls']>[number]): ContentPart {
  const { id } = splitCallId(call.id);
  return call.type === 'function'
    ? { type: 'tool_call', id, name: call.function.name, arguments: call.function.arguments }
    : {
        type: 'tool_call',
        id,
        name: call.custom.name,
        arguments: customArguments(call.custom.input),
      };
}

function assistantParts(message: AssistantMessage, field: string): ContentPart[] {
  const content = message.content ?? [];
  // Refusal parts are the model's earlier refusals; no other format has a slot for them.
  const text =
    typeof content === 'string'
      ? content
      : content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
  const parts: ContentPart[] = reasoningParts(message, field);
  if (text !== '') parts.push(textPart(text));
  for (const call of message.tool_calls ?? []) parts.push(toolCallPart(call));
  return parts;
}

/**
 * System and developer messages before the conversation starts form the system prompt, in
 * order; later ones stay where they are, as system turns.
 */
function convertMessages(request: ChatRequest): { system: TextPart[]; messages: CanonicalMessage[] } {
  const system: TextPart[] = [];
  const messages: CanonicalMessage[] = [];
  request.messages.forEach((message, i) => {
    const field = `messages[${i}].content`;
    if (message.role === 'system' || message.role === 'developer') {
      if (messages.length === 0) system.push(...textParts(message.content));
      else messages.push({ role: 'system', content: textParts(message.content) });
    } else if (message.role === 'user')
      appendMessage(messages, { role: 'user', content: userParts(message.content, field) });
    else if (message.role === 'assistant')
      appendMessage(messages, { role: 'assistant', content: assistantParts(message, `messages[${i}]`) });
    else {
      const content = textParts(message.content);
      appendMessage(messages, {
        role: 'user',
        content: [{ type: 'tool_result', toolCallId: splitCallId(message.tool_call_id).id, content }],
      });
    }
  });
  return { system, messages };
}

function toolChoice(choice: ChatRequest['tool_choice']): ToolChoice | undefined {
  if (choice === null || choice === undefined) return undefined;
  if (typeof choice === 'string') return choice;
  const raw = choice as { function?: { name?: unknown }; custom?: { name?: unknown } };
  const name = raw.function?.name ?? raw.custom?.name;
  return typeof name === 'string' ? { name } : undefined;
}

function toolDefinition(tool: ChatTool, index: number): ToolDefinition {
  const raw = tool as Record<string, unknown>;
  if (tool.type === 'function') {
    const fn = (tool as Extract<ChatTool, { type: 'function' }>).function;
    return compact({
      kind: 'function' as const,
      name: fn.name,
      description: orUndefined(fn.description),
      // Chat lets a function omit parameters; canonical tools always carry a schema.
      parameters: fn.parameters ?? { type: 'object', properties: {} },
      strict: orUndefined(fn.strict),
    });
  }
  if (tool.type === 'custom') {
    const custom = raw.custom as {
      name: string;
      description?: string | null;
      format?: Record<string, unknown> | null;
    };
    return compact({
      kind: 'custom' as const,
      name: custom.name,
      description: orUndefined(custom.description),
      format: orUndefined(custom.format),
    });
  }
  return hostedTool('openai-chat', index, raw);
}

function responseFormat(format: ChatRequest['response_format']): ResponseFormat | undefined {
  if (format === null || format === undefined) return undefined;
  if (format.type !== 'json_schema') return { type: format.type };
  const { name, schema, strict } = format.json_schema;
  return compact<ResponseFormat>({
    type: 'json_schema',
    name,
    schema: schema ?? {},
    strict: orUndefined(strict),
  });
}

function stopList(stop: ChatRequest['stop']): string[] | undefined {
  if (stop === null || stop === undefined) return undefined;
  return typeof stop === 'string' ? [stop] : stop;
}

export function chatToCanonical(request: ChatRequest): CanonicalRequest {
  const { system, messages } = convertMessages(request);
  const tools = request.tools?.map(toolDefinition);
  const effort = request.reasoning_effort;
  return compact({
    model: request.model,
    system,
    messages,
    maxTokens: orUndefined(request.max_completion_tokens ?? request.max_tokens),
    temperature: orUndefined(request.temperature),
    topP: orUndefined(request.top_p),
    stop: stopList(request.stop),
    presencePenalty: orUndefined(request.presence_penalty),
    frequencyPenalty: orUndefined(request.frequency_penalty),
    seed: orUndefined(request.seed),
    tools,
    toolChoice: toolChoice(request.tool_choice),
    parallelToolCalls: orUndefined(request.parallel_tool_calls),
    responseFormat: responseFormat(request.response_format),
    stream: request.stream === true,
    includeUsage: request.stream_options?.include_usage === true ? true : undefined,
    user: orUndefined(request.user),
    metadata: orUndefined(request.metadata),
    reasoning: isReasoningEffort(effort) ? { effort } : undefined,
  });
}

/** Validates a client body (400 naming the field) and parses it. */
export function parseChatRequest(body: unknown): CanonicalRequest {
  return chatToCanonical(isPlainChatRequest(body) ? body : parseBody(chatRequestSchema, body));
}
