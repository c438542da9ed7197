import type {
  CanonicalMessage,
  CanonicalRequest,
  ContentPart,
  ResponseFormat,
  TextPart,
  ToolChoice,
} from '../../canonical/types';
import { appendMessage, compact, textPart } from '../common/conversation';
import { imageFromUrl } from '../common/images';
import { parseBody } from '../common/validate';
import { isPlainChatRequest } from './plain-request';
import {
  type ChatMessage,
  type ChatRequest,
  type ChatUserContent,
  chatRequestSchema,
} from './request-schema';

type Nullish<T> = T | null | undefined;
const orUndefined = <T>(value: Nullish<T>): T | undefined => value ?? undefined;

function textParts(content: string | Array<{ text: string }>): TextPart[] {
  if (typeof content === 'string') return content === '' ? [] : [textPart(content)];
  return content.map((part) => textPart(part.text));
}

function userParts(content: ChatUserContent, field: string): ContentPart[] {
  if (typeof content === 'string') return [textPart(content)];
  return content.map((part, i) =>
    part.type === 'text'
      ? textPart(part.text)
      : imageFromUrl(part.image_url.url, `${field}[${i}].image_url.url`),
  );
}

function assistantParts(message: Extract<ChatMessage, { role: 'assistant' }>): ContentPart[] {
  const content = message.content ?? [];
  // Refusal parts are the model's earlier refusals; no other format has a slot for them.
  const text =
    typeof content === 'string'
      ? content
      : content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
  const parts: ContentPart[] = text === '' ? [] : [textPart(text)];
  for (const call of message.tool_calls ?? []) {
    parts.push({
      type: 'tool_call',
      id: call.id,
      name: call.function.name,
      arguments: call.function.arguments,
    });
  }
  return parts;
}

/** System and developer messages anywhere in the list become the system prompt, in order. */
function convertMessages(request: ChatRequest): { system: TextPart[]; messages: CanonicalMessage[] } {
  const system: TextPart[] = [];
  const messages: CanonicalMessage[] = [];
  request.messages.forEach((message, i) => {
    const field = `messages[${i}].content`;
    if (message.role === 'system' || message.role === 'developer') system.push(...textParts(message.content));
    else if (message.role === 'user')
      appendMessage(messages, { role: 'user', content: userParts(message.content, field) });
    else if (message.role === 'assistant')
      appendMessage(messages, { role: 'assistant', content: assistantParts(message) });
    else {
      const content = textParts(message.content);
      appendMessage(messages, {
        role: 'user',
        content: [{ type: 'tool_result', toolCallId: message.tool_call_id, content }],
      });
    }
  });
  return { system, messages };
}

function toolChoice(choice: ChatRequest['tool_choice']): ToolChoice | undefined {
  if (choice === null || choice === undefined) return undefined;
  return typeof choice === 'string' ? choice : { name: choice.function.name };
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
  const tools = request.tools?.map((tool) =>
    compact({
      name: tool.function.name,
      description: orUndefined(tool.function.description),
      // Chat lets a function omit parameters; canonical tools always carry a schema.
      parameters: tool.function.parameters ?? { type: 'object', properties: {} },
    }),
  );
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
  });
}

/** Validates a client body (400 naming the field) and parses it. */
export function parseChatRequest(body: unknown): CanonicalRequest {
  return chatToCanonical(isPlainChatRequest(body) ? body : parseBody(chatRequestSchema, body));
}
