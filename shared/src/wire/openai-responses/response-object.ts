import type { FinishReason, TextPart, ToolCallPart, Usage } from '../../canonical/types';
import { formatId, idCore } from '../common/ids';

/**
 * The Response object, shared by the non-streaming body and by the response.* stream events
 * (which must carry the same object, ids included, that the output_item events built up).
 */
export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
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
}

export type OutputItem = OutputMessage | FunctionCallItem;

export interface ResponseOutcome {
  status: ResponseStatus;
  error: { code: string; message: string } | null;
  incomplete_details: { reason: 'max_output_tokens' | 'content_filter' } | null;
}

export function responsesUsage(usage: Usage): ResponsesUsage {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0 },
    output_tokens: usage.outputTokens,
    // Reasoning tokens are not tracked canonically; they are already inside output_tokens.
    output_tokens_details: { reasoning_tokens: 0 },
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

export function functionCallItem(part: ToolCallPart, status: ItemStatus): FunctionCallItem {
  const { id, name } = part;
  return {
    type: 'function_call',
    id: formatId('fc_', id),
    call_id: formatId('call_', id),
    name,
    arguments: part.arguments,
    status,
  };
}

export function messageItem(id: string, texts: string[], status: ItemStatus): OutputMessage {
  const content = texts.map((text): OutputText => ({ type: 'output_text', text, annotations: [] }));
  return { type: 'message', id, status, role: 'assistant', content };
}

/** One output item per canonical block, in order; output_index = block position. */
export function outputItems(
  content: Array<TextPart | ToolCallPart>,
  respId: string,
  status: ItemStatus,
): OutputItem[] {
  return content.map((part, index) =>
    part.type === 'text'
      ? messageItem(messageItemId(respId, index), [part.text], status)
      : functionCallItem(part, status),
  );
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
    item.type === 'message' ? item.content.map((c) => c.text) : [],
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
