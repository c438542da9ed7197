import * as z from 'zod';
import { jsonObject, otherTypeObject } from '../common/schema-parts';

/**
 * POST /v1/messages bodies. The gateway validates what it reads (the conversation it
 * translates, token caps, thinking, cache marks, tools) and leaves the rest loose: unknown
 * fields (context_management, service_tier, container, …), block types (document,
 * search_result, server tool blocks, …) and tool types go to an Anthropic-type upstream
 * untouched; on a translated route unknown blocks and server tools are refused by name.
 */
const cacheControl = z.looseObject({ type: z.string(), ttl: z.enum(['5m', '1h']).optional() }).nullish();

const textBlock = z.looseObject({ type: z.literal('text'), text: z.string(), cache_control: cacheControl });
const imageBlock = z.looseObject({
  type: z.literal('image'),
  // Sources the gateway cannot translate (file ids) are checked where they would be translated.
  source: z.looseObject({ type: z.string() }),
  cache_control: cacheControl,
});
const toolUseBlock = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string().min(1),
  name: z.string().min(1),
  input: jsonObject,
  cache_control: cacheControl,
});
/** Anything newer than this list: a block is an object with a type. */
const otherBlock = z.looseObject({ type: z.string().min(1) });
const toolResultBlock = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string().min(1),
  content: z.union([z.string(), z.array(otherBlock)]).optional(),
  is_error: z.boolean().optional(),
  cache_control: cacheControl,
});
/** Extended thinking a client sends back: restored exactly on the next turn. */
const thinkingBlock = z.looseObject({
  type: z.literal('thinking'),
  thinking: z.string(),
  signature: z.string().optional(),
});
const redactedThinkingBlock = z.looseObject({ type: z.literal('redacted_thinking'), data: z.string() });

const KNOWN_BLOCKS: ReadonlySet<string> = new Set([
  'text',
  'image',
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
]);

const contentBlock = z.union([
  z.discriminatedUnion('type', [
    textBlock,
    imageBlock,
    toolUseBlock,
    toolResultBlock,
    thinkingBlock,
    redactedThinkingBlock,
  ]),
  otherTypeObject(KNOWN_BLOCKS),
]);

const message = z.looseObject({
  // Mid-conversation instructions (`system`) are generally available on the Messages API.
  role: z.enum(['user', 'assistant', 'system']),
  content: z.union([z.string(), z.array(contentBlock)]),
});

/** A client tool (JSON input); `type` is absent or `custom`. */
const clientTool = z.looseObject({
  type: z.literal('custom').optional(),
  name: z.string().min(1),
  description: z.string().optional(),
  input_schema: jsonObject,
  cache_control: cacheControl,
});
/** A tool Anthropic runs (web_search_20250305, bash_20250124, …): named by its versioned type. */
const serverTool = otherTypeObject(new Set(['custom'])).extend({
  name: z.string().optional(),
  cache_control: cacheControl,
});

const parallel = { disable_parallel_tool_use: z.boolean().optional() };
const toolChoice = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('auto'), ...parallel }),
  z.looseObject({ type: z.literal('any'), ...parallel }),
  z.looseObject({ type: z.literal('tool'), name: z.string().min(1), ...parallel }),
  z.looseObject({ type: z.literal('none') }),
]);

const thinking = z.looseObject({
  type: z.string().min(1),
  budget_tokens: z.number().int().min(1).optional(),
  display: z.string().optional(),
});

export const messagesRequestSchema = z.looseObject({
  model: z.string().min(1),
  max_tokens: z.number().int().min(1),
  messages: z.array(message).min(1, 'must contain at least one message'),
  system: z.union([z.string(), z.array(textBlock)]).optional(),
  temperature: z.number().min(0).max(1).optional(),
  top_p: z.number().min(0).max(1).optional(),
  top_k: z.number().int().min(0).optional(),
  stop_sequences: z.array(z.string()).optional(),
  stream: z.boolean().optional(),
  metadata: z.looseObject({ user_id: z.string().nullish() }).optional(),
  tools: z.array(z.union([clientTool, serverTool])).optional(),
  tool_choice: toolChoice.optional(),
  thinking: thinking.optional(),
  output_config: z.looseObject({ effort: z.string().optional(), format: z.unknown().optional() }).optional(),
});

/** count_tokens takes what /v1/messages takes, less the output cap (and streaming). */
export const countTokensRequestSchema = messagesRequestSchema.extend({
  max_tokens: z.number().int().min(1).optional(),
});

export type MessagesRequest = z.output<typeof messagesRequestSchema>;
export type CountTokensRequest = z.output<typeof countTokensRequestSchema>;
export type MessagesContentBlock = z.output<typeof contentBlock>;
export type MessagesImageBlock = z.output<typeof imageBlock>;
export type MessagesTool = z.output<typeof clientTool> | z.output<typeof serverTool>;
export type MessagesCacheControl = z.output<typeof cacheControl>;
