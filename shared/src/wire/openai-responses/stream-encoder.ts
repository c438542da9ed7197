import type { StreamEvent } from '../../canonical/types';
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
import {
  functionCallItem,
  messageItem,
  messageItemId,
  outcomeFor,
  outputItems,
  type ResponseFields,
  responseId,
  responseObject,
  responsesUsage,
} from './response-object';

const FAILED = { status: 'failed', incomplete_details: null } as const;

/**
 * Canonical blocks → Responses items: a text block is a message item with one output_text
 * part, a tool call is a function_call item; output_index is the block's position. Every
 * event carries a sequence_number counting from 0.
 */
class ResponsesWriter implements FormatWriter {
  private sequence = 0;
  private id = '';
  private readonly createdAt = nowSeconds();
  /** fc_ item ids of open function calls, by output index (argument deltas must name them). */
  private readonly callItems = new Map<number, string>();

  constructor(
    private readonly out: SseOut,
    private readonly clientModel: string,
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

  block(event: BlockEvent): void {
    const output_index = event.block;
    const text = { item_id: messageItemId(this.id, output_index), output_index, content_index: 0 };
    if (event.type === 'text_start') {
      this.emit('response.output_item.added', {
        output_index,
        item: messageItem(text.item_id, [], 'in_progress'),
      });
      this.emit('response.content_part.added', {
        ...text,
        part: { type: 'output_text', text: '', annotations: [] },
      });
    } else if (event.type === 'text_delta') {
      this.emit('response.output_text.delta', { ...text, delta: event.text, logprobs: [] });
    } else if (event.type === 'tool_call_start') {
      const item = functionCallItem(
        { type: 'tool_call', id: event.id, name: event.name, arguments: '' },
        'in_progress',
      );
      this.callItems.set(output_index, item.id);
      this.emit('response.output_item.added', { output_index, item });
    } else if (event.type === 'tool_call_delta') {
      const item_id = this.callItems.get(output_index);
      this.emit('response.function_call_arguments.delta', {
        item_id,
        output_index,
        delta: event.argumentsDelta,
      });
    } else this.stop(event);
  }

  private stop({ block: output_index, part }: Extract<BlockEvent, { type: 'block_stop' }>): void {
    if (part.type === 'tool_call') {
      const item = functionCallItem(part, 'completed');
      const done = { item_id: item.id, output_index, name: item.name, arguments: item.arguments };
      this.emit('response.function_call_arguments.done', done);
      this.emit('response.output_item.done', { output_index, item });
      return;
    }
    const text = { item_id: messageItemId(this.id, output_index), output_index, content_index: 0 };
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
    const output = outputItems(content, this.id, itemStatus);
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
      output: outputItems(content, this.id, 'incomplete'),
      usage: null,
    });
    this.emit('response.failed', { response });
  }
}

/** Canonical events → the response.* event sequence `openai`'s responses.stream() consumes. */
export function createResponsesStreamEncoder(clientModel: string): TransformStream<StreamEvent, Uint8Array> {
  return createFramedEncoder((out) => new ResponsesWriter(out, clientModel));
}
