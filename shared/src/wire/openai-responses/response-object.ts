import type { AnswerPart, FinishReason, ReasoningPart, ToolCallPart, Usage } from '../../canonical/types';
import { customInput } from '../common/custom-tools';
import { formatId, idCore } from '../common/ids';
import type { CallShape } from '../common/tool-shapes';
import { cacheWriteDetail } from '../common/usage';

/**
 * The Response object, shared by the non-streaming body and by the response.* stream events
 * (which must carry the same object, ids included, that the output_item events built up).
 */
export interface ResponsesUsage {
  input_tokens: number;
  /** cache_write_tokens: prompt-cache writes, which OpenAI does not charge but other vendors do. */
  input_tokens_details: { cached_tokens: number; cache_write_tokens?: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';
export type ResponseStatus = 'in_progress' | 'completed' | 'incomplete' | 'failed';

export interface OutputText {
  type: 'output_text';
  text: string;
  annotations: [];
}

export interface OutputMessage {
  type: 'message';
  id: string;
  status: ItemStatus;
  role: 'assistant';
  content: OutputText[];
}

export interface FunctionCallItem {
  type: 'function_call';
  id: string;
  call_id: string;
  name: string;
  arguments: string;
  status: ItemStatus;
  namespace?: string;
}

export interface CustomToolCallItem {
  type: 'custom_tool_call';
  id: string;
  call_id: string;
  name: string;
  input: string;
  status: ItemStatus;
}

export interface ReasoningItem {
  type: 'reasoning';
  id: string;
  summary: Array<{ type: 'summary_text'; text: string }>;
  /** The gateway's seal of another vendor's reasoning (null when there is nothing to restore). */
  encrypted_content: string | null;
}

/** OpenAI's own reasoning item, as its API sent it. */
export type NativeItem = Record<string, unknown> & { type: string };

export type OutputItem = OutputMessage | FunctionCallItem | CustomToolCallItem | ReasoningItem | NativeItem;

export interface ResponseOutcome {
  status: ResponseStatus;
  error: { code: string; message: string } | null;
  incomplete_details: { reason: 'max_output_tokens' | 'content_filter' } | null;
}

export function responsesUsage(usage: Usage): ResponsesUsage {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0, ...cacheWriteDetail(usage) },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}

export function outcomeFor(reason: FinishReason): ResponseOutcome {
  if (reason === 'length' || reason === 'content_filter') {
    const details = {
      reason: reason === 'length' ? ('max_output_tokens' as const) : ('content_filter' as const),
    };
    return { status: 'incomplete', error: null, incomplete_details: details };
  }
  if (reason === 'error') {
    const error = { code: 'server_error', message: 'The upstream model stopped with an error' };
    return { status: 'failed', error, incomplete_details: null };
  }
  return { status: 'completed', error: null, incomplete_details: null };
}

export const responseId = (canonicalId: string): string => formatId('resp_', canonicalId);

/** Message items have no upstream id of their own; derive one per output slot. */
export const messageItemId = (respId: string, outputIndex: number): string =>
  `msg_${idCore(respId)}_${outputIndex}`;

/** A tool call in the shape the client declared its tool: function, namespaced function or custom. */
export function toolCallItem(
  part: ToolCallPart,
  status: ItemStatus,
  shape: CallShape,
): FunctionCallItem | CustomToolCallItem {
  const { id } = part;
  const call_id = formatId('call_', id);
  if (shape.kind === 'custom') {
    const input = customInput(part.arguments);
    return { type: 'custom_tool_call', id: formatId('ctc_', id), call_id, name: part.name, input, status };
  }
  const item: FunctionCallItem = {
    type: 'function_call',
    id: formatId('fc_', id),
    call_id,
    name: shape.kind === 'namespaced' ? shape.name : part.name,
    arguments: part.arguments,
    status,
  };
  if (shape.kind === 'namespaced') item.namespace = shape.namespace;
  return item;
}

export const reasoningItemId = (respId: string, outputIndex: number): string =>
  `rs_${idCore(respId)}_${outputIndex}`;

/** OpenAI's own reasoning goes back as it came; another vendor's rides sealed in encrypted_content. */
export function reasoningItem(part: ReasoningPart, id: string): OutputItem {
  if (part.opaque?.vendor === 'openai') return part.opaque.data as NativeItem;
  const summary = part.text === '' ? [] : [{ type: 'summary_text' as const, text: part.text }];
  return { type: 'reasoning', id, summary, encrypted_content: part.sealed ?? null };
}

export function messageItem(id: string, texts: string[], status: ItemStatus): OutputMessage {
  const content = texts.map((text): OutputText => ({ type: 'output_text', text, annotations: [] }));
  return { type: 'message', id, status, role: 'assistant', content };
}

/** One output item per canonical block, in order; output_index = block position. */
export function outputItems(
  content: AnswerPart[],
  respId: string,
  status: ItemStatus,
  shapeOf: (name: string) => CallShape,
): OutputItem[] {
  return content.map((part, index) => {
    if (part.type === 'text') return messageItem(messageItemId(respId, index), [part.text], status);
    if (part.type === 'reasoning') return reasoningItem(part, reasoningItemId(respId, index));
    return toolCallItem(part, status, shapeOf(part.name));
  });
}

export interface ResponseFields {
  id: string;
  createdAt: number;
  /** Unix seconds; reported only when the status is completed. */
  completedAt: number;
  model: string;
  outcome: ResponseOutcome;
  output: OutputItem[];
  usage: ResponsesUsage | null;
}

/**
 * The full object. Fields the SDK types mark required but the gateway cannot know from the
 * canonical response (the request's echo: instructions, tools, sampling) get neutral values.
 */
export function responseObject(fields: ResponseFields): Record<string, unknown> {
  const { outcome, output } = fields;
  const outputText = output.flatMap((item) =>
    item.type === 'message' ? (item as OutputMessage).content.map((c) => c.text) : [],
  );
  return {
    id: fields.id,
    object: 'response',
    created_at: fields.createdAt,
    status: outcome.status,
    background: false,
    completed_at: outcome.status === 'completed' ? fields.completedAt : null,
    error: outcome.error,
    incomplete_details: outcome.incomplete_details,
    instructions: null,
    max_output_tokens: null,
    metadata: {},
    model: fields.model,
    output,
    output_text: outputText.join(''),
    parallel_tool_calls: true,
    previous_response_id: null,
    temperature: null,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: null,
    truncation: 'disabled',
    usage: fields.usage,
  };
}
