import * as z from 'zod';
import { functionDeclarationFields, jsonObject, otherTypeObject } from '../common/schema-parts';

/**
 * POST /v1/chat/completions bodies. OpenAI accepts null for most optional fields and clients
 * send it, so optional fields are nullish. Objects are loose: unknown fields are forwarded
 * untouched on same-format passthrough and ignored on translation; unknown content part and
 * tool types are kept, and refused by name only on a route that cannot take them.
 */
const textPart = z.looseObject({ type: z.literal('text'), text: z.string() });
const imagePart = z.looseObject({
  type: z.literal('image_url'),
  image_url: z.looseObject({ url: z.string().min(1), detail: z.enum(['auto', 'low', 'high']).optional() }),
});
const refusalPart = z.looseObject({ type: z.literal('refusal'), refusal: z.string() });

const KNOWN_PARTS: ReadonlySet<string> = new Set(['text', 'image_url', 'refusal']);
/** A content part of a type the gateway does not read (input_audio, file, …). */
const otherPart = otherTypeObject(KNOWN_PARTS);

const textContent = z.union([z.string(), z.array(textPart)]);
const userContent = z.union([
  z.string(),
  z.array(z.union([z.discriminatedUnion('type', [textPart, imagePart]), otherPart])),
]);
const assistantContent = z.union([
  z.string(),
  z.array(z.discriminatedUnion('type', [textPart, refusalPart])),
]);

const toolCall = z.discriminatedUnion('type', [
  z.looseObject({
    id: z.string().min(1),
    type: z.literal('function'),
    function: z.looseObject({ name: z.string().min(1), arguments: z.string() }),
  }),
  z.looseObject({
    id: z.string().min(1),
    type: z.literal('custom'),
    custom: z.looseObject({ name: z.string().min(1), input: z.string() }),
  }),
]);

/** The gateway's seal of another vendor's reasoning, as it hands it to chat clients. */
const reasoningDetail = z.looseObject({ type: z.string(), data: z.string().optional() });

const message = z.discriminatedUnion('role', [
  z.looseObject({ role: z.literal('system'), content: textContent }),
  z.looseObject({ role: z.literal('developer'), content: textContent }),
  z.looseObject({ role: z.literal('user'), content: userContent }),
  z.looseObject({
    role: z.literal('assistant'),
    content: assistantContent.nullish(),
    tool_calls: z.array(toolCall).nullish(),
    /** Reasoning text as DeepSeek, vLLM and the gateway give it (clients such as opencode send it back). */
    reasoning_content: z.string().nullish(),
    reasoning_details: z.array(reasoningDetail).nullish(),
  }),
  z.looseObject({ role: z.literal('tool'), tool_call_id: z.string().min(1), content: textContent }),
]);

const functionTool = z.looseObject({
  type: z.literal('function'),
  function: z.looseObject(functionDeclarationFields),
});
const customTool = z.looseObject({
  type: z.literal('custom'),
  custom: z.looseObject({
    name: z.string().min(1),
    description: z.string().nullish(),
    format: jsonObject.nullish(),
  }),
});
/** Tool types newer than these two are kept for an OpenAI upstream, refused elsewhere by name. */
const otherTool = otherTypeObject(new Set(['function', 'custom']));
const tool = z.union([z.discriminatedUnion('type', [functionTool, customTool]), otherTool]);

const toolChoice = z.union([
  z.enum(['none', 'auto', 'required']),
  z.looseObject({ type: z.literal('function'), function: z.looseObject({ name: z.string().min(1) }) }),
  z.looseObject({ type: z.literal('custom'), custom: z.looseObject({ name: z.string().min(1) }) }),
  z.looseObject({ type: z.string().min(1) }),
]);

const responseFormat = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text') }),
  z.looseObject({ type: z.literal('json_object') }),
  z.looseObject({
    type: z.literal('json_schema'),
    json_schema: z.looseObject({
      name: z.string().min(1),
      description: z.string().optional(),
      schema: jsonObject.optional(),
      strict: z.boolean().nullish(),
    }),
  }),
]);

const penalty = z.number().min(-2).max(2).nullish();

export const chatRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(message).min(1, 'must contain at least one message'),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  max_tokens: z.number().int().min(1).nullish(),
  max_completion_tokens: z.number().int().min(1).nullish(),
  n: z.literal(1, 'only n = 1 is supported').nullish(),
  stop: z.union([z.string(), z.array(z.string())]).nullish(),
  presence_penalty: penalty,
  frequency_penalty: penalty,
  seed: z.number().int().nullish(),
  user: z.string().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  tools: z.array(tool).nullish(),
  tool_choice: toolChoice.nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  response_format: responseFormat.nullish(),
  reasoning_effort: z.string().nullish(),
});

export type ChatRequest = z.output<typeof chatRequestSchema>;
export type ChatMessage = ChatRequest['messages'][number];
export type ChatUserContent = z.output<typeof userContent>;
export type ChatTool = z.output<typeof tool>;
export type ChatToolCall = z.output<typeof toolCall>;
