/**
 * Messages API stream (named events message_start … message_stop) → canonical events.
 *
 * Anthropic already streams in blocks; this maps them one to one, renumbering so blocks
 * with no canonical form (thinking, server tools) leave no gaps, and combines the input
 * usage from message_start with the output usage from message_delta. Usage is reported twice:
 * as message_start gives it, then in full at message_delta (consumers merge by maximum).
 */
import type { StreamEvent } from '../../canonical/types';
import type { SseEvent } from '../../sse/decoder';
import { streamError } from '../common/errors';
import { asNumber, asRecord, asString, isRecord, type JsonObject, parseJsonObject } from '../common/json';
import type { SseEventMapper } from '../common/sse-stream';
import { readAnthropicError } from './errors';
import { mapAnthropicStopReason, parseAnthropicUsage } from './response';

/** Non-null usage fields of `update` win: message_delta counts are cumulative. */
function mergeUsage(base: JsonObject, update: JsonObject | undefined): JsonObject {
  const out = { ...base };
  for (const [key, value] of Object.entries(update ?? {})) if (value !== null) out[key] = value;
  return out;
}

export class AnthropicStreamMapper implements SseEventMapper {
  private done = false;
  private finished = false;
  private nextIndex = 0;
  /** Vendor block index → canonical index, for the blocks that have a canonical form. */
  private readonly blocks = new Map<number, number>();
  private usage: JsonObject = {};

  onEvent(event: SseEvent): StreamEvent[] {
    if (this.done) return [];
    const data = parseJsonObject(event.data);
    if (!data) return this.fail('upstream_error', 'Upstream sent an unreadable stream event');
    switch (asString(data.type) ?? event.event) {
      case 'message_start':
        return this.onMessageStart(asRecord(data.message) ?? {});
      case 'content_block_start':
        return this.onBlockStart(asNumber(data.index) ?? 0, asRecord(data.content_block) ?? {});
      case 'content_block_delta':
        return this.onBlockDelta(this.blocks.get(asNumber(data.index) ?? 0), asRecord(data.delta) ?? {});
      case 'content_block_stop': {
        const index = this.blocks.get(asNumber(data.index) ?? 0);
        return index === undefined ? [] : [{ type: 'block_stop', index }];
      }
      case 'message_delta':
        return this.onMessageDelta(asRecord(data.delta) ?? {}, asRecord(data.usage));
      case 'message_stop':
        this.done = true;
        return [];
      case 'error': {
        const { type, message } = readAnthropicError(data);
        return this.fail(type ?? 'upstream_error', message ?? 'Upstream stream failed');
      }
      default:
        return []; // ping, and event types added after this adapter was written
    }
  }

  onEnd(): StreamEvent[] {
    if (this.done || this.finished) return [];
    return this.fail('upstream_error', 'Upstream stream ended before completion');
  }

  private onMessageStart(message: JsonObject): StreamEvent[] {
    this.usage = asRecord(message.usage) ?? {};
    const start: StreamEvent = {
      type: 'start',
      id: asString(message.id) ?? '',
      model: asString(message.model) ?? '',
    };
    // The input usage is known now: a client that leaves before message_delta is still charged it.
    if (!isRecord(message.usage)) return [start];
    return [start, { type: 'usage', usage: parseAnthropicUsage(this.usage) }];
  }

  private onBlockStart(vendorIndex: number, block: JsonObject): StreamEvent[] {
    if (block.type === 'text') {
      const index = this.open(vendorIndex);
      const text = asString(block.text);
      const out: StreamEvent[] = [{ type: 'text_start', index }];
      if (text) out.push({ type: 'text_delta', index, text });
      return out;
    }
    if (block.type === 'tool_use') {
      const index = this.open(vendorIndex);
      const id = asString(block.id) ?? '';
      return [{ type: 'tool_call_start', index, id, name: asString(block.name) ?? '' }];
    }
    return [];
  }

  private onBlockDelta(index: number | undefined, delta: JsonObject): StreamEvent[] {
    if (index === undefined) return [];
    if (delta.type === 'text_delta') {
      const text = asString(delta.text);
      return text ? [{ type: 'text_delta', index, text }] : [];
    }
    if (delta.type === 'input_json_delta') {
      const fragment = asString(delta.partial_json);
      return fragment ? [{ type: 'tool_call_delta', index, argumentsDelta: fragment }] : [];
    }
    return []; // thinking, signature and citation deltas have no canonical form
  }

  private onMessageDelta(delta: JsonObject, usage: JsonObject | undefined): StreamEvent[] {
    this.finished = true;
    this.usage = mergeUsage(this.usage, usage);
    return [
      { type: 'finish', finishReason: mapAnthropicStopReason(asString(delta.stop_reason)) },
      { type: 'usage', usage: parseAnthropicUsage(this.usage) },
    ];
  }

  private open(vendorIndex: number): number {
    const index = this.nextIndex++;
    this.blocks.set(vendorIndex, index);
    return index;
  }

  private fail(errorType: string, message: string): StreamEvent[] {
    this.done = true;
    return [streamError(errorType, message)];
  }
}
