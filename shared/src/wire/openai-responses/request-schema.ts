import * as z from 'zod';
import { functionDeclarationFields, jsonObject } from '../common/schema-parts';

/**
 * POST /v1/responses bodies. Optional fields are nullish (OpenAI accepts null) and objects
 * are loose: unknown fields (store, reasoning, include, …) are forwarded untouched on
 * same-format passthrough and ignored on translation.
 */
const inputText = z.looseObject({ type: z.literal('input_text'), text: z.string() });
const inputImage = z.looseObject({
  type: z.literal('input_image'),
  image_url: z.string().min(1).nullish(),
  file_id: z.string().nullish(),
  detail: z.enum(['auto', 'low', 'high']).nullish(),
});
const outputText = z.looseObject({ type: z.literal('output_text'), text: z.string() });
const refusal = z.looseObject({ type: z.literal('refusal'), refusal: z.string() });

const messageContent = z.union([
  z.string(),
  z.array(z.discriminatedUnion('type', [inputText, inputImage, outputText, refusal])),
]);

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
});
const functionCallOutputItem = z.looseObject({
  type: z.literal('function_call_output'),
  call_id: z.string().min(1),
  output: z.union([z.string(), z.array(z.discriminatedUnion('type', [inputText, inputImage]))]),
});
/** Reasoning items a client replays from an earlier response; opaque, so dropped. */
const reasoningItem = z.looseObject({ type: z.literal('reasoning') });

/** Easy input messages may omit `type`; they are messages. */
const withMessageType = (value: unknown): unknown =>
  typeof value === 'object' && value !== null && !('type' in value) && 'role' in value
    ? { ...value, type: 'message' }
    : value;

const inputItem = z.preprocess(
  withMessageType,
  z.discriminatedUnion('type', [messageItem, functionCallItem, functionCallOutputItem, reasoningItem]),
);

const tool = z.looseObject({ type: z.literal('function'), ...functionDeclarationFields });

const toolChoice = z.union([
  z.enum(['none', 'auto', 'required']),
  z.looseObject({ type: z.literal('function'), name: z.string().min(1) }),
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
});

export type ResponsesRequest = z.output<typeof responsesRequestSchema>;
export type ResponsesInputItem = z.output<typeof inputItem>;
export type ResponsesMessageContent = z.output<typeof messageContent>;
export type ResponsesInputImage = z.output<typeof inputImage>;
