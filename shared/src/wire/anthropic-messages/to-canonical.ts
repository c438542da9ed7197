import type {
  CanonicalMessage,
  CanonicalRequest,
  ContentPart,
  ImagePart,
  TextPart,
  ToolChoice,
} from '../../canonical/types';
import { badRequest } from '../../http/app-error';
import { compact, textPart } from '../common/conversation';
import { parseBody } from '../common/validate';
import {
  type MessagesContentBlock,
  type MessagesImageBlock,
  type MessagesRequest,
  messagesRequestSchema,
} from './request-schema';

function imagePart(block: MessagesImageBlock): ImagePart {
  const { source } = block;
  return source.type === 'base64'
    ? { type: 'image', source: { kind: 'base64', mediaType: source.media_type, data: source.data } }
    : { type: 'image', source: { kind: 'url', url: source.url } };
}

function toolResultContent(content: Extract<MessagesContentBlock, { type: 'tool_result' }>['content']) {
  if (content === undefined) return [];
  if (typeof content === 'string') return content === '' ? [] : [textPart(content)];
  return content.map((block) => (block.type === 'text' ? textPart(block.text) : imagePart(block)));
}

/** One block → canonical parts; tool_use only from the assistant, tool_result only from the user. */
function convertBlock(block: MessagesContentBlock, role: 'user' | 'assistant', field: string): ContentPart[] {
  switch (block.type) {
    case 'text':
      return [textPart(block.text)];
    case 'image':
      if (role === 'assistant')
        throw badRequest(`Invalid '${field}': images are only allowed in user messages`);
      return [imagePart(block)];
    case 'tool_use':
      if (role === 'user')
        throw badRequest(`Invalid '${field}': tool_use blocks belong in assistant messages`);
      return [{ type: 'tool_call', id: block.id, name: block.name, arguments: JSON.stringify(block.input) }];
    case 'tool_result': {
      if (role === 'assistant')
        throw badRequest(`Invalid '${field}': tool_result blocks belong in user messages`);
      const content = toolResultContent(block.content);
      const part = { type: 'tool_result' as const, toolCallId: block.tool_use_id, content };
      return [block.is_error === undefined ? part : { ...part, isError: block.is_error }];
    }
    default:
      return [];
  }
}

function convertMessages(request: MessagesRequest): CanonicalMessage[] {
  return request.messages.map((message, i) => {
    if (typeof message.content === 'string')
      return { role: message.role, content: [textPart(message.content)] };
    const content = message.content.flatMap((block, j) =>
      convertBlock(block, message.role, `messages[${i}].content[${j}]`),
    );
    return { role: message.role, content };
  });
}

function systemParts(system: MessagesRequest['system']): TextPart[] {
  if (system === undefined) return [];
  if (typeof system === 'string') return system === '' ? [] : [textPart(system)];
  return system.map((block) => textPart(block.text));
}

function toolChoice(choice: MessagesRequest['tool_choice']): ToolChoice | undefined {
  if (choice === undefined) return undefined;
  if (choice.type === 'tool') return { name: choice.name };
  return choice.type === 'any' ? 'required' : choice.type;
}

export function messagesToCanonical(request: MessagesRequest): CanonicalRequest {
  const choice = request.tool_choice;
  const disableParallel = choice?.type === 'none' ? undefined : choice?.disable_parallel_tool_use;
  return compact({
    model: request.model,
    system: systemParts(request.system),
    messages: convertMessages(request),
    maxTokens: request.max_tokens,
    temperature: request.temperature,
    topP: request.top_p,
    // top_k has no canonical slot (most vendors lack it); it is dropped on translation.
    stop: request.stop_sequences,
    tools: request.tools?.map((tool) =>
      compact({ name: tool.name, description: tool.description, parameters: tool.input_schema }),
    ),
    toolChoice: toolChoice(choice),
    parallelToolCalls: disableParallel === undefined ? undefined : !disableParallel,
    stream: request.stream === true,
    user: request.metadata?.user_id ?? undefined,
  });
}

/** Validates a client body (400 naming the field) and parses it. */
export function parseMessagesRequest(body: unknown): CanonicalRequest {
  return messagesToCanonical(parseBody(messagesRequestSchema, body));
}
