import * as z from 'zod';
import { functionDeclarationFields, jsonObject, otherTypeObject } from '../common/schema-parts';

/**
 * POST /v1/responses bodies. Optional fields are nullish (OpenAI accepts null) and objects
 * are loose. The gateway validates what it reads and translates (messages, function and
 * custom tool calls, reasoning items, function / custom / namespace tools, caps); everything
 * else — fields (store, include, prompt_cache_key, …), item types (web_search_call,
 * item_reference, …), content part types and tool types (web_search, file_search, mcp, …) —
 * goes to an OpenAI upstream untouched, and on a translated route is mapped or refused by name.
 */
const inputText = z.looseObject({ type: z.literal('input_text'), text: z.string() });
const inputImage = z.looseObject({
  type: z.literal('input_image'),
  image_url: z.string().min(1).nullish(),
  file_id: z.string().nullish(),
  detail: z.string().nullish(),
});
const outputText = z.looseObject({ type: z.literal('output_text'), text: z.string() });
const refusal = z.looseObject({ type: z.literal('refusal'), refusal: z.string() });

const KNOWN_PARTS: ReadonlySet<string> = new Set(['input_text', 'input_image', 'output_text', 'refusal']);
/** A content part of a type the gateway does not read (input_file, input_audio, …). */
const otherPart = otherTypeObject(KNOWN_PARTS);

const contentPart = z.union([
  z.discriminatedUnion('type', [inputText, inputImage, outputText, refusal]),
  otherPart,
]);
const messageContent = z.union([z.string(), z.array(contentPart)]);

const messageItem = z.looseObject({
  type: z.literal('message'),
  role: z.enum(['user', 'assistant', 'system', 'developer']),
  content: messageContent,
});
const functionCallItem = z.looseObject({
  type: z.literal('function_call'),
  call_id: z.string().min(1),
  name: z.string().min(1),
  arguments: z.string(),
  /** A call of a function declared inside a `namespace` tool. */
  namespace: z.string().nullish(),
});
const functionCallOutputItem = z.looseObject({
  type: z.literal('function_call_output'),
  call_id: z.string().min(1),
  output: z.union([z.string(), z.array(contentPart)]),
});
const customToolCallItem = z.looseObject({
  type: z.literal('custom_tool_call'),
  call_id: z.string().min(1),
  name: z.string().min(1),
  input: z.string(),
});
const customToolCallOutputItem = z.looseObject({
  type: z.literal('custom_tool_call_output'),
  call_id: z.string().min(1),
  output: z.union([z.string(), z.array(contentPart)]),
});
/** Reasoning a client replays from an earlier response: restored exactly where it can be. */
const reasoningItem = z.looseObject({
  type: z.literal('reasoning'),
  summary: z.array(z.looseObject({ text: z.string() })).nullish(),
  encrypted_content: z.string().nullish(),
});

const KNOWN_ITEMS: ReadonlySet<string> = new Set([
  'message',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'reasoning',
]);
const otherItem = otherTypeObject(KNOWN_ITEMS);

/** Easy input messages may omit `type`; they are messages. */
const withMessageType = (value: unknown): unknown =>
  typeof value === 'object' && value !== null && !('type' in value) && 'role' in value
    ? { ...value, type: 'message' }
    : value;

const inputItem = z.preprocess(
  withMessageType,
  z.union([
    z.discriminatedUnion('type', [
      messageItem,
      functionCallItem,
      functionCallOutputItem,
      customToolCallItem,
      customToolCallOutputItem,
      reasoningItem,
    ]),
    otherItem,
  ]),
);

const functionTool = z.looseObject({ type: z.literal('function'), ...functionDeclarationFields });
const customTool = z.looseObject({
  type: z.literal('custom'),
  name: z.string().min(1),
  description: z.string().nullish(),
  format: jsonObject.nullish(),
});
/** A group of functions under one name (Codex's multi-agent tools, connectors). */
const namespaceTool = z.looseObject({
  type: z.literal('namespace'),
  name: z.string().min(1),
  description: z.string().nullish(),
  tools: z.array(functionTool),
});
const KNOWN_TOOLS: ReadonlySet<string> = new Set(['function', 'custom', 'namespace']);
/** A tool OpenAI runs itself (web_search, file_search, mcp, code_interpreter, …). */
const hostedTool = otherTypeObject(KNOWN_TOOLS);
const tool = z.union([z.discriminatedUnion('type', [functionTool, customTool, namespaceTool]), hostedTool]);

const toolChoice = z.union([
  z.enum(['none', 'auto', 'required']),
  z.looseObject({ type: z.literal('function'), name: z.string().min(1) }),
  z.looseObject({ type: z.string().min(1) }),
]);

const textFormat = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text') }),
  z.looseObject({ type: z.literal('json_object') }),
  z.looseObject({
    type: z.literal('json_schema'),
    name: z.string().min(1),
    schema: jsonObject,
    description: z.string().nullish(),
    strict: z.boolean().nullish(),
  }),
]);

export const responsesRequestSchema = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(inputItem).min(1, 'must contain at least one item')]),
  instructions: z.string().nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  max_output_tokens: z.number().int().min(1).nullish(),
  stream: z.boolean().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  user: z.string().nullish(),
  tools: z.array(tool).nullish(),
  tool_choice: toolChoice.nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  text: z.looseObject({ format: textFormat.nullish() }).nullish(),
  reasoning: z.looseObject({ effort: z.string().nullish(), summary: z.string().nullish() }).nullish(),
});

export type ResponsesRequest = z.output<typeof responsesRequestSchema>;
export type ResponsesInputItem = z.output<typeof inputItem>;
export type ResponsesMessageContent = z.output<typeof messageContent>;
export type ResponsesContentPart = z.output<typeof contentPart>;
export type ResponsesTool = z.output<typeof tool>;
