import {
  EFFORT_FOR_ANTHROPIC_EFFORT,
  effortForBudget,
  isReasoningEffort,
  isSealed,
} from '../../canonical/reasoning';
import type {
  CacheMark,
  CanonicalMessage,
  CanonicalRequest,
  ContentPart,
  ImagePart,
  ReasoningEffort,
  ReasoningPart,
  ReasoningRequest,
  ResponseFormat,
  TextPart,
  ToolChoice,
  ToolDefinition,
  VendorPart,
} from '../../canonical/types';
import { badRequest } from '../../http/app-error';
import { compact, hostedTool, textPart, vendorPart } from '../common/conversation';
import { parseBody } from '../common/validate';
import {
  type CountTokensRequest,
  countTokensRequestSchema,
  type MessagesCacheControl,
  type MessagesContentBlock,
  type MessagesRequest,
  type MessagesTool,
  messagesRequestSchema,
} from './request-schema';

/** A Messages body as validated; count_tokens bodies have no output cap. */
type ParsedMessages = MessagesRequest | CountTokensRequest;

type Block = Record<string, unknown>;

function cacheMark(control: MessagesCacheControl): CacheMark | undefined {
  if (!control) return undefined;
  return control.ttl === undefined ? {} : { ttl: control.ttl };
}

function withCache<T extends object>(part: T, control: MessagesCacheControl): T {
  const cache = cacheMark(control);
  return cache ? { ...part, cache } : part;
}

/** base64 and url images translate; other sources (file ids) only go to Anthropic itself. */
function imagePart(block: Block & { source: Block }, field: string): ImagePart | VendorPart {
  const { source } = block;
  const cache = block.cache_control as MessagesCacheControl;
  if (source.type === 'base64' && typeof source.media_type === 'string' && typeof source.data === 'string') {
    const image: ImagePart = {
      type: 'image',
      source: { kind: 'base64', mediaType: source.media_type, data: source.data },
    };
    return withCache(image, cache);
  }
  if (source.type === 'url' && typeof source.url === 'string' && source.url !== '') {
    return withCache<ImagePart>({ type: 'image', source: { kind: 'url', url: source.url } }, cache);
  }
  return vendorPart('anthropic-messages', field, block);
}

function toolResultContent(content: unknown, field: string): Array<TextPart | ImagePart | VendorPart> {
  if (content === undefined) return [];
  if (typeof content === 'string') return content === '' ? [] : [textPart(content)];
  return (content as Block[]).map((block, i) => {
    const inner = `${field}.content[${i}]`;
    if (block.type === 'text' && typeof block.text === 'string') return textPart(block.text);
    if (block.type === 'image' && typeof block.source === 'object' && block.source !== null) {
      return imagePart(block as Block & { source: Block }, inner);
    }
    return vendorPart('anthropic-messages', inner, block);
  });
}

/**
 * A thinking block the client sends back: the vendor's own (Anthropic's signature) is kept as
 * it is; one the gateway sealed (reasoning from another vendor) is opened before translation.
 */
function reasoningPart(
  block: Block,
  text: string,
  opaqueField: 'signature' | 'data',
  field: string,
): ReasoningPart {
  const value = block[opaqueField];
  if (isSealed(value)) return { type: 'reasoning', text, sealed: value, field: `${field}.${opaqueField}` };
  return { type: 'reasoning', text, opaque: { vendor: 'anthropic', data: block } };
}

function roleError(field: string, what: string, role: string): never {
  throw badRequest(`Invalid '${field}': ${what} blocks belong in ${role} messages`);
}

/** One block → its canonical part; tool_use and thinking only from the assistant, tool_result only from the user. */
function convertBlock(
  block: MessagesContentBlock,
  role: CanonicalMessage['role'],
  field: string,
): ContentPart {
  const raw = block as Block;
  const cache = raw.cache_control as MessagesCacheControl;
  switch (block.type) {
    case 'text':
      return withCache(textPart(block.text as string), cache);
    case 'image':
      if (role === 'assistant')
        throw badRequest(`Invalid '${field}': images are only allowed in user messages`);
      return imagePart(raw as Block & { source: Block }, field);
    case 'tool_use':
      if (role !== 'assistant') roleError(field, 'tool_use', 'assistant');
      return withCache(
        {
          type: 'tool_call',
          id: block.id as string,
          name: block.name as string,
          arguments: JSON.stringify(block.input),
        },
        cache,
      );
    case 'tool_result': {
      if (role !== 'user') roleError(field, 'tool_result', 'user');
      const content = toolResultContent(raw.content, field);
      const part = { type: 'tool_result' as const, toolCallId: block.tool_use_id as string, content };
      const withError = block.is_error === undefined ? part : { ...part, isError: block.is_error as boolean };
      return withCache(withError, cache);
    }
    case 'thinking':
      if (role !== 'assistant') roleError(field, 'thinking', 'assistant');
      return reasoningPart(raw, block.thinking as string, 'signature', field);
    case 'redacted_thinking':
      if (role !== 'assistant') roleError(field, 'redacted_thinking', 'assistant');
      return reasoningPart(raw, '', 'data', field);
    default:
      return vendorPart('anthropic-messages', field, raw);
  }
}

function convertMessages(request: ParsedMessages): CanonicalMessage[] {
  return request.messages.map((message, i) => {
    if (typeof message.content === 'string')
      return { role: message.role, content: [textPart(message.content)] };
    const content = message.content.map((block, j) =>
      convertBlock(block, message.role, `messages[${i}].content[${j}]`),
    );
    return { role: message.role, content };
  });
}

function systemParts(system: ParsedMessages['system']): TextPart[] {
  if (system === undefined) return [];
  if (typeof system === 'string') return system === '' ? [] : [textPart(system)];
  return system.map((block) => withCache(textPart(block.text), block.cache_control));
}

function toolChoice(choice: MessagesRequest['tool_choice']): ToolChoice | undefined {
  if (choice === undefined) return undefined;
  if (choice.type === 'tool') return { name: choice.name };
  return choice.type === 'any' ? 'required' : choice.type;
}

function toolDefinition(tool: MessagesTool, index: number): ToolDefinition {
  if ('input_schema' in tool && (tool.type === undefined || tool.type === 'custom')) {
    const { name, description, input_schema, cache_control } = tool as Extract<
      MessagesTool,
      { input_schema: unknown }
    >;
    return withCache(
      compact({ kind: 'function' as const, name, description, parameters: input_schema }),
      cache_control,
    );
  }
  return withCache(hostedTool('anthropic-messages', index, tool as Block), tool.cache_control);
}

function namedEffort(effort: string | undefined): ReasoningEffort | undefined {
  if (effort === undefined) return undefined;
  // Own keys only: the client's string must not reach Object.prototype ("constructor", "__proto__").
  if (Object.hasOwn(EFFORT_FOR_ANTHROPIC_EFFORT, effort)) return EFFORT_FOR_ANTHROPIC_EFFORT[effort];
  return isReasoningEffort(effort) ? effort : 'medium';
}

/**
 * `thinking` and `output_config.effort` on the portable effort scale (canonical/reasoning.ts):
 * a budget maps by size, adaptive thinking by its named effort (medium when none is named),
 * `display: "omitted"` asks for no reasoning text.
 */
function reasoningOf(request: ParsedMessages): ReasoningRequest | undefined {
  const { thinking } = request;
  const named = namedEffort(request.output_config?.effort);
  if (!thinking) return named === undefined ? undefined : { effort: named };
  if (thinking.type === 'disabled') return { effort: 'none' };
  const summary = thinking.display === 'omitted' ? ('none' as const) : undefined;
  const budget = thinking.budget_tokens;
  if (thinking.type === 'enabled' && budget !== undefined) {
    return compact({ effort: named ?? effortForBudget(budget), budgetTokens: budget, summary });
  }
  return compact({ effort: named ?? 'medium', summary });
}

/** Structured outputs (`output_config.format`): a JSON schema. */
function responseFormat(request: ParsedMessages): ResponseFormat | undefined {
  const format = request.output_config?.format as Block | undefined;
  if (format?.type !== 'json_schema' || typeof format.schema !== 'object' || format.schema === null) {
    return undefined;
  }
  return { type: 'json_schema', name: 'response', schema: format.schema as Record<string, unknown> };
}

export function messagesToCanonical(request: ParsedMessages): CanonicalRequest {
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
    tools: request.tools?.map(toolDefinition),
    toolChoice: toolChoice(choice),
    parallelToolCalls: disableParallel === undefined ? undefined : !disableParallel,
    responseFormat: responseFormat(request),
    stream: request.stream === true,
    user: request.metadata?.user_id ?? undefined,
    reasoning: reasoningOf(request),
  });
}

/** Validates a client body (400 naming the field) and parses it. */
export function parseMessagesRequest(body: unknown): CanonicalRequest {
  return messagesToCanonical(parseBody(messagesRequestSchema, body));
}

/** count_tokens: exactly what /v1/messages accepts, less `max_tokens` (400 naming the field). */
export function parseCountTokensRequest(body: unknown): CanonicalRequest {
  return messagesToCanonical(parseBody(countTokensRequestSchema, body));
}
