/**
 * Responses API stream (typed events response.created … response.completed) → canonical events.
 *
 * Output items map one to one onto canonical blocks, keyed by `output_index`: a message is a
 * text block, a function or custom tool call a tool call, and any other item (reasoning, a
 * hosted tool's call) a reasoning block whose whole item, given at its output_item.done, is
 * sent as OpenAI's own (reasoning_opaque) before the block stops. A custom tool's input is
 * gathered and given once, as the canonical `{"input": …}` arguments. Where a server sends an
 * item only at its done (no added, no deltas), the block opens and closes there.
 * Event types this adapter does not know are ignored.
 */

import type { StreamEvent } from '../../canonical/types';
import type { SseEvent } from '../../sse/decoder';
import { customArguments } from '../../wire/common/custom-tools';
import { streamError } from '../common/errors';
import { asNumber, asRecord, asString, type JsonObject, parseJsonObject } from '../common/json';
import type { SseEventMapper } from '../common/sse-stream';
import { readOpenAiError } from './errors';
import {
  functionCallName,
  messageText,
  parseResponsesUsage,
  responsesFinishReason,
  SUMMARY_SEPARATOR,
} from './responses-response';

interface Block {
  index: number;
  kind: 'text' | 'tool' | 'custom' | 'opaque';
  open: boolean;
  /** Whether any delta went out (else the done item's whole content is given there). */
  streamed: boolean;
  /** A custom tool's input so far. */
  input: string;
  /** Which summary part (or reasoning text part) the last reasoning delta belonged to. */
  part?: string;
}

const TERMINAL = new Set(['response.completed', 'response.incomplete', 'response.failed']);

function kindOf(item: JsonObject): Block['kind'] {
  if (item.type === 'message') return 'text';
  if (item.type === 'function_call') return 'tool';
  if (item.type === 'custom_tool_call') return 'custom';
  return 'opaque';
}

export class ResponsesStreamMapper implements SseEventMapper {
  private started = false;
  private done = false;
  private calledTools = false;
  private nextIndex = 0;
  private readonly blocks = new Map<number, Block>();

  onEvent(event: SseEvent): StreamEvent[] {
    if (this.done) return [];
    // A compatible server may end with chat's sentinel; without a terminal event that is a cut.
    if (event.data.trim() === '[DONE]') return this.onEnd();
    const data = parseJsonObject(event.data);
    if (!data) return this.fail('upstream_error', 'Upstream sent an unreadable stream event');
    const type = asString(data.type) ?? event.event ?? '';
    const out: StreamEvent[] = [];
    if (type === 'error') return this.onError(data);
    if (type.startsWith('response.')) this.start(asRecord(data.response), out);
    if (TERMINAL.has(type)) this.onTerminal(asRecord(data.response) ?? {}, out);
    else this.onItemEvent(type, data, out);
    return out;
  }

  onEnd(): StreamEvent[] {
    if (this.done) return [];
    return this.fail('upstream_error', 'Upstream stream ended before completion');
  }

  private onItemEvent(type: string, data: JsonObject, out: StreamEvent[]): void {
    const outputIndex = asNumber(data.output_index) ?? 0;
    const delta = asString(data.delta) ?? '';
    switch (type) {
      case 'response.output_item.added':
        this.open(outputIndex, asRecord(data.item) ?? {}, out);
        return;
      case 'response.output_item.done':
        this.onItemDone(outputIndex, asRecord(data.item) ?? {}, out);
        return;
      case 'response.output_text.delta':
      case 'response.refusal.delta':
      case 'response.function_call_arguments.delta': {
        const kind = type === 'response.function_call_arguments.delta' ? 'tool' : 'text';
        // Text may arrive for a message never announced; open it rather than lose the text.
        const block =
          this.blocks.get(outputIndex) ?? (kind === 'text' ? this.openText(outputIndex, out) : undefined);
        if (block?.open && block.kind === kind && delta !== '') this.emitDelta(block, delta, out);
        return;
      }
      case 'response.custom_tool_call_input.delta': {
        const block = this.blocks.get(outputIndex);
        if (block?.open) block.input += delta;
        return;
      }
      case 'response.reasoning_summary_text.delta':
        this.onReasoningDelta(outputIndex, `summary:${asNumber(data.summary_index) ?? 0}`, delta, out);
        return;
      case 'response.reasoning_text.delta':
        this.onReasoningDelta(outputIndex, `text:${asNumber(data.content_index) ?? 0}`, delta, out);
        return;
      default:
      // Everything else (in_progress, content parts, *.done duplicates, hosted tools'
      // progress, event types added after this adapter) says nothing new.
    }
  }

  private start(response: JsonObject | undefined, out: StreamEvent[]): void {
    if (this.started) return;
    this.started = true;
    out.push({ type: 'start', id: asString(response?.id) ?? '', model: asString(response?.model) ?? '' });
  }

  private open(outputIndex: number, item: JsonObject, out: StreamEvent[]): Block {
    const existing = this.blocks.get(outputIndex);
    if (existing) return existing;
    const block: Block = {
      index: this.nextIndex++,
      kind: kindOf(item),
      open: true,
      streamed: false,
      input: '',
    };
    this.blocks.set(outputIndex, block);
    const { index } = block;
    if (block.kind === 'text') out.push({ type: 'text_start', index });
    else if (block.kind === 'opaque') out.push({ type: 'reasoning_start', index });
    else {
      this.calledTools = true;
      const id = asString(item.call_id) ?? asString(item.id) ?? `call_${index}`;
      const name = block.kind === 'tool' ? functionCallName(item) : (asString(item.name) ?? '');
      out.push({ type: 'tool_call_start', index, id, name });
    }
    return block;
  }

  private openText(outputIndex: number, out: StreamEvent[]): Block {
    return this.open(outputIndex, { type: 'message' }, out);
  }

  private emitDelta(block: Block, delta: string, out: StreamEvent[]): void {
    block.streamed = true;
    const { index } = block;
    if (block.kind === 'text') out.push({ type: 'text_delta', index, text: delta });
    else if (block.kind === 'tool') out.push({ type: 'tool_call_delta', index, argumentsDelta: delta });
  }

  /** Summary parts stream one after another; a blank line keeps them apart as paragraphs. */
  private onReasoningDelta(outputIndex: number, part: string, delta: string, out: StreamEvent[]): void {
    const block = this.blocks.get(outputIndex);
    if (!block?.open || block.kind !== 'opaque' || delta === '') return;
    const text = block.part !== undefined && block.part !== part ? `${SUMMARY_SEPARATOR}${delta}` : delta;
    block.part = part;
    block.streamed = true;
    out.push({ type: 'reasoning_delta', index: block.index, text });
  }

  private onItemDone(outputIndex: number, item: JsonObject, out: StreamEvent[]): void {
    const block = this.open(outputIndex, item, out);
    if (!block.open) return;
    const { index } = block;
    if (block.kind === 'text' && !block.streamed) {
      const text = messageText(item);
      if (text) this.emitDelta(block, text, out);
    } else if (block.kind === 'tool' && !block.streamed) {
      const args = asString(item.arguments);
      if (args) this.emitDelta(block, args, out);
    } else if (block.kind === 'custom') {
      const args = customArguments(asString(item.input) ?? block.input);
      out.push({ type: 'tool_call_delta', index, argumentsDelta: args });
    } else if (block.kind === 'opaque') {
      out.push({ type: 'reasoning_opaque', index, opaque: { vendor: 'openai', data: item } });
    }
    this.close(block, out);
  }

  private close(block: Block, out: StreamEvent[]): void {
    block.open = false;
    out.push({ type: 'block_stop', index: block.index });
  }

  private onTerminal(response: JsonObject, out: StreamEvent[]): void {
    this.done = true;
    for (const block of this.blocks.values()) if (block.open) this.close(block, out);
    out.push({ type: 'finish', finishReason: responsesFinishReason(response, this.calledTools) });
    if (response.usage) out.push({ type: 'usage', usage: parseResponsesUsage(response.usage) });
  }

  /** `{type: 'error', code, message}`, or an `error` object inside it as some servers send. */
  private onError(data: JsonObject): StreamEvent[] {
    const nested = asRecord(data.error) ? readOpenAiError(data) : {};
    const type = nested.type ?? asString(data.code) ?? 'upstream_error';
    return this.fail(type, nested.message ?? asString(data.message) ?? 'Upstream stream failed');
  }

  private fail(errorType: string, message: string): StreamEvent[] {
    this.done = true;
    return [streamError(errorType, message)];
  }
}
