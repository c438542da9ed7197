import type { CanonicalRequest, StreamEvent } from '../../canonical/types';
import { nowSeconds } from '../common/ids';
import {
  type BlockEvent,
  createFramedEncoder,
  type FormatWriter,
  type SseOut,
  type StreamEnd,
  type StreamFailure,
  type StreamOpen,
} from '../common/stream-frame';
import { type CallShape, callShapes } from '../common/tool-shapes';
import {
  messageItem,
  messageItemId,
  outcomeFor,
  outputItems,
  type ResponseFields,
  reasoningItem,
  reasoningItemId,
  responseId,
  responseObject,
  responsesUsage,
  toolCallItem,
} from './response-object';

const FAILED = { status: 'failed', incomplete_details: null } as const;

type TextAt = { item_id: string; output_index: number; content_index: 0 };
type SummaryAt = { item_id: string; output_index: number; summary_index: 0 };

/**
 * Canonical blocks → Responses items: a text block is a message item with one output_text
 * part, a tool call is a function_call item; output_index is the block's position. Every
 * event carries a sequence_number counting from 0.
 */
class ResponsesWriter implements FormatWriter {
  private sequence = 0;
  private id = '';
  private readonly createdAt = nowSeconds();
  /** Open tool calls by output index: their item id (argument deltas must name it) and shape. */
  private readonly callItems = new Map<number, { id: string; shape: CallShape }>();
  /** Reasoning items whose summary part has been opened, by output index: where their events point. */
  private readonly summaries = new Map<number, SummaryAt>();

  constructor(
    private readonly out: SseOut,
    private readonly clientModel: string,
    private readonly shapeOf: (name: string) => CallShape,
  ) {}

  private emit(type: string, payload: Record<string, unknown>): void {
    this.out.json({ type, ...payload, sequence_number: this.sequence++ }, type);
  }

  private response(fields: Pick<ResponseFields, 'outcome' | 'output' | 'usage'>): Record<string, unknown> {
    const times = { createdAt: this.createdAt, completedAt: nowSeconds() };
    return responseObject({ id: this.id, model: this.clientModel, ...times, ...fields });
  }

  open({ id }: StreamOpen): void {
    this.id = responseId(id);
    const inProgress = { status: 'in_progress', error: null, incomplete_details: null } as const;
    const response = this.response({ outcome: inProgress, output: [], usage: null });
    this.emit('response.created', { response });
    this.emit('response.in_progress', { response });
  }

  /** Where a message item's text events point (its one output_text part). */
  private textAt(output_index: number): TextAt {
    return { item_id: messageItemId(this.id, output_index), output_index, content_index: 0 };
  }

  block(event: BlockEvent): void {
    const output_index = event.block;
    switch (event.type) {
      case 'text_start': {
        const text = this.textAt(output_index);
        this.emit('response.output_item.added', {
          output_index,
          item: messageItem(text.item_id, [], 'in_progress'),
        });
        this.emit('response.content_part.added', {
          ...text,
          part: { type: 'output_text', text: '', annotations: [] },
        });
        return;
      }
      case 'text_delta':
        this.emit('response.output_text.delta', {
          ...this.textAt(output_index),
          delta: event.text,
          logprobs: [],
        });
        return;
      case 'tool_call_start':
        this.startCall(output_index, event.id, event.name);
        return;
      case 'tool_call_delta': {
        const call = this.callItems.get(output_index);
        // A custom tool's text is known only whole (canonical arguments are `{"input": …}` JSON).
        if (call?.shape.kind === 'custom') return;
        const delta = { item_id: call?.id, output_index, delta: event.argumentsDelta };
        this.emit('response.function_call_arguments.delta', delta);
        return;
      }
      case 'reasoning_start': {
        const item = reasoningItem({ type: 'reasoning', text: '' }, reasoningItemId(this.id, output_index));
        this.emit('response.output_item.added', { output_index, item });
        return;
      }
      case 'reasoning_delta':
        this.summaryDelta(output_index, event.text);
        return;
      case 'reasoning_opaque':
        return;
      case 'block_stop':
        this.stop(event);
    }
  }

  private startCall(output_index: number, id: string, name: string): void {
    const shape = this.shapeOf(name);
    const item = toolCallItem({ type: 'tool_call', id, name, arguments: '' }, 'in_progress', shape);
    this.callItems.set(output_index, { id: item.id, shape });
    this.emit('response.output_item.added', { output_index, item });
  }

  private summaryDelta(output_index: number, delta: string): void {
    let at = this.summaries.get(output_index);
    if (at === undefined) {
      at = { item_id: reasoningItemId(this.id, output_index), output_index, summary_index: 0 };
      this.summaries.set(output_index, at);
      this.emit('response.reasoning_summary_part.added', { ...at, part: { type: 'summary_text', text: '' } });
    }
    this.emit('response.reasoning_summary_text.delta', { ...at, delta });
  }

  private stop({ block: output_index, part }: Extract<BlockEvent, { type: 'block_stop' }>): void {
    if (part.type === 'tool_call') {
      const item = toolCallItem(part, 'completed', this.shapeOf(part.name));
      if (item.type === 'custom_tool_call') {
        const at = { item_id: item.id, output_index };
        this.emit('response.custom_tool_call_input.delta', { ...at, delta: item.input });
        this.emit('response.custom_tool_call_input.done', { ...at, input: item.input });
      } else {
        const done = { item_id: item.id, output_index, name: item.name, arguments: item.arguments };
        this.emit('response.function_call_arguments.done', done);
      }
      this.emit('response.output_item.done', { output_index, item });
      return;
    }
    if (part.type === 'reasoning') {
      const at = this.summaries.get(output_index);
      if (at !== undefined) {
        this.emit('response.reasoning_summary_text.done', { ...at, text: part.text });
        this.emit('response.reasoning_summary_part.done', {
          ...at,
          part: { type: 'summary_text', text: part.text },
        });
      }
      const item_id = at?.item_id ?? reasoningItemId(this.id, output_index);
      this.emit('response.output_item.done', { output_index, item: reasoningItem(part, item_id) });
      return;
    }
    const text = this.textAt(output_index);
    this.emit('response.output_text.done', { ...text, text: part.text, logprobs: [] });
    this.emit('response.content_part.done', {
      ...text,
      part: { type: 'output_text', text: part.text, annotations: [] },
    });
    this.emit('response.output_item.done', {
      output_index,
      item: messageItem(text.item_id, [part.text], 'completed'),
    });
  }

  finish({ finishReason, usage, content }: StreamEnd): void {
    const outcome = outcomeFor(finishReason);
    const itemStatus = outcome.status === 'completed' ? 'completed' : 'incomplete';
    const output = outputItems(content, this.id, itemStatus, this.shapeOf);
    const response = this.response({ outcome, output, usage: usage ? responsesUsage(usage) : null });
    this.emit(`response.${outcome.status}`, { response });
  }

  /**
   * `error` makes the SDK's ResponseStream reject; `response.failed` is the terminal event
   * raw-event clients wait for, carrying the partial output.
   */
  fail({ message, errorType, content }: StreamFailure): void {
    this.emit('error', { code: errorType, message, param: null });
    const outcome = { ...FAILED, error: { code: 'server_error', message } };
    const response = this.response({
      outcome,
      output: outputItems(content, this.id, 'incomplete', this.shapeOf),
      usage: null,
    });
    this.emit('response.failed', { response });
  }
}

/** Canonical events → the response.* event sequence `openai`'s responses.stream() consumes. */
export function createResponsesStreamEncoder(
  clientModel: string,
  request?: CanonicalRequest,
): TransformStream<StreamEvent, Uint8Array> {
  const shapeOf = callShapes(request);
  return createFramedEncoder((out) => new ResponsesWriter(out, clientModel, shapeOf));
}
