/**
 * Messages API stream (named events message_start … message_stop) → canonical events.
 *
 * Anthropic already streams in blocks; this maps them one to one: text and client tool calls
 * as such, every other block (thinking, redacted thinking, server tools) as a reasoning block
 * whose whole vendor form, assembled from its deltas, is given at its end (reasoning_opaque).
 * The input usage from message_start is combined with the output usage from message_delta.
 * Usage is reported twice: as message_start gives it, then in full at message_delta
 * (consumers merge by maximum).
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

/** An opaque block being assembled: the block so far, and its tool input as JSON text so far. */
interface OpaqueAssembly {
  block: JsonObject;
  json: string;
}

/** What a vendor block index stands for: its canonical index, and its opaque block while open. */
interface VendorBlock {
  index: number;
  opaque?: OpaqueAssembly | undefined;
}

export class AnthropicStreamMapper implements SseEventMapper {
  private done = false;
  private finished = false;
  private nextIndex = 0;
  private readonly blocks = new Map<number, VendorBlock>();
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
      case 'content_block_delta': {
        const vendorIndex = asNumber(data.index) ?? 0;
        const delta = asRecord(data.delta) ?? {};
        const block = this.blocks.get(vendorIndex);
        return block?.opaque
          ? this.onOpaqueDelta(block.index, block.opaque, delta)
          : this.onBlockDelta(block?.index, delta);
      }
      case 'content_block_stop':
        return this.onBlockStop(asNumber(data.index) ?? 0);
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
    const opened = this.open(vendorIndex);
    const { index } = opened;
    if (block.type === 'text') {
      const text = asString(block.text);
      const out: StreamEvent[] = [{ type: 'text_start', index }];
      if (text) out.push({ type: 'text_delta', index, text });
      return out;
    }
    if (block.type === 'tool_use') {
      const id = asString(block.id) ?? '';
      return [{ type: 'tool_call_start', index, id, name: asString(block.name) ?? '' }];
    }
    opened.opaque = { block: { ...block }, json: '' };
    const out: StreamEvent[] = [{ type: 'reasoning_start', index }];
    const text = block.type === 'thinking' ? asString(block.thinking) : undefined;
    if (text) out.push({ type: 'reasoning_delta', index, text });
    return out;
  }

  /** Thinking text streams on as reasoning; signatures and server-tool input are assembled. */
  private onOpaqueDelta(index: number, opaque: OpaqueAssembly, delta: JsonObject): StreamEvent[] {
    const { block } = opaque;
    if (delta.type === 'thinking_delta') {
      const text = asString(delta.thinking) ?? '';
      block.thinking = (asString(block.thinking) ?? '') + text;
      return text ? [{ type: 'reasoning_delta', index, text }] : [];
    }
    if (delta.type === 'signature_delta')
      block.signature = (asString(block.signature) ?? '') + (asString(delta.signature) ?? '');
    else if (delta.type === 'input_json_delta') opaque.json += asString(delta.partial_json) ?? '';
    return [];
  }

  private onBlockStop(vendorIndex: number): StreamEvent[] {
    const block = this.blocks.get(vendorIndex);
    if (!block) return [];
    const { index, opaque } = block;
    if (!opaque) return [{ type: 'block_stop', index }];
    block.opaque = undefined;
    const data =
      opaque.json === '' ? opaque.block : { ...opaque.block, input: parseJsonObject(opaque.json) ?? {} };
    return [
      { type: 'reasoning_opaque', index, opaque: { vendor: 'anthropic', data } },
      { type: 'block_stop', index },
    ];
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
    return []; // citation deltas have no canonical form
  }

  private onMessageDelta(delta: JsonObject, usage: JsonObject | undefined): StreamEvent[] {
    this.finished = true;
    this.usage = mergeUsage(this.usage, usage);
    return [
      { type: 'finish', finishReason: mapAnthropicStopReason(asString(delta.stop_reason)) },
      { type: 'usage', usage: parseAnthropicUsage(this.usage) },
    ];
  }

  /**
   * Gives the vendor's block the next canonical index. The entry is reused, not replaced: should a
   * malformed stream restart an index whose opaque block never stopped, that block keeps its deltas.
   */
  private open(vendorIndex: number): VendorBlock {
    const block = this.blocks.get(vendorIndex) ?? { index: 0 };
    block.index = this.nextIndex++;
    this.blocks.set(vendorIndex, block);
    return block;
  }

  private fail(errorType: string, message: string): StreamEvent[] {
    this.done = true;
    return [streamError(errorType, message)];
  }
}
