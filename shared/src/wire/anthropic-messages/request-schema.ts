import * as z from 'zod';
import { jsonObject } from '../common/schema-parts';

/**
 * POST /v1/messages bodies. Objects are loose: unknown fields (thinking, cache_control,
 * service_tier, …) are forwarded untouched on same-format passthrough and ignored on
 * translation.
 */
const textBlock = z.looseObject({ type: z.literal('text'), text: z.string() });
const imageBlock = z.looseObject({
  type: z.literal('image'),
  source: z.discriminatedUnion('type', [
    z.looseObject({ type: z.literal('base64'), media_type: z.string().min(1), data: z.string() }),
    z.looseObject({ type: z.literal('url'), url: z.string().min(1) }),
  ]),
});
const toolUseBlock = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string().min(1),
  name: z.string().min(1),
  input: jsonObject,
});
const toolResultBlock = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string().min(1),
  content: z.union([z.string(), z.array(z.discriminatedUnion('type', [textBlock, imageBlock]))]).optional(),
  is_error: z.boolean().optional(),
});
/** Extended-thinking blocks a client sends back; no other vendor can take them, so dropped. */
const thinkingBlock = z.looseObject({ type: z.enum(['thinking', 'redacted_thinking']) });

const contentBlock = z.discriminatedUnion('type', [
  textBlock,
  imageBlock,
  toolUseBlock,
  toolResultBlock,
  thinkingBlock,
]);

const message = z.looseObject({
  role: z.enum(['user', 'assistant']),
  content: z.union([z.string(), z.array(contentBlock)]),
});

const tool = z.looseObject({
  // Client tools only; server tools (web_search_…, bash_…) need the vendor itself.
  type: z.literal('custom').optional(),
  name: z.string().min(1),
  description: z.string().optional(),
  input_schema: jsonObject,
});

const parallel = { disable_parallel_tool_use: z.boolean().optional() };
const toolChoice = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('auto'), ...parallel }),
  z.looseObject({ type: z.literal('any'), ...parallel }),
  z.looseObject({ type: z.literal('tool'), name: z.string().min(1), ...parallel }),
  z.looseObject({ type: z.literal('none') }),
]);

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
  tools: z.array(tool).optional(),
  tool_choice: toolChoice.optional(),
});

export type MessagesRequest = z.output<typeof messagesRequestSchema>;
export type MessagesContentBlock = z.output<typeof contentBlock>;
export type MessagesImageBlock = z.output<typeof imageBlock>;
