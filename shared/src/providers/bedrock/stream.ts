import type { StreamEvent } from '../../canonical/types';
import { streamError } from '../common/errors';
import { EventStreamParser } from '../common/eventstream-decoder';
import { EventStreamError, type EventStreamMessage, headerString } from '../common/eventstream-types';
import { randomId } from '../common/ids';
import { isRecord, type JsonObject, parseJsonObject } from '../common/json';
import { bedrockStreamErrorType } from './errors';
import { ReasoningAssembly } from './reasoning';
import { type BedrockDecodeOptions, bedrockFinishReason, bedrockUsage } from './response';

interface OpenBlock {
  /** Converse's contentBlockIndex. */
  source: number;
  index: number;
  kind: 'text' | 'tool' | 'reasoning';
  sentArguments: boolean;
  /** A reasoning block's content so far, given whole (reasoning_opaque) when it ends. */
  reasoning?: ReasoningAssembly;
}

const utf8 = new TextDecoder();

/**
 * ConverseStream events → canonical events. Text and reasoning blocks have no
 * contentBlockStart (their first delta opens them); tool blocks start with id and name and
 * stream their input as JSON text fragments. Reasoning streams its text as reasoning deltas;
 * its signature (or redacted content) is assembled, and the whole block follows as
 * reasoning_opaque before its block_stop, unless the stream broke off inside it. Canonical
 * indexes are renumbered so skipped blocks leave no gaps.
 */
export class ConverseStreamMapper {
  private readonly newId: (prefix: string) => string;
  private started = false;
  private finished = false;
  private failed = false;
  private nextIndex = 0;
  private open: OpenBlock | undefined;

  constructor(private readonly options: BedrockDecodeOptions = {}) {
    this.newId = options.newId ?? randomId;
  }

  message(message: EventStreamMessage): StreamEvent[] {
    if (this.failed) return [];
    const messageType = headerString(message, ':message-type') ?? 'event';
    const body = parseJsonObject(utf8.decode(message.payload));
    if (messageType === 'exception') {
      const name = headerString(message, ':exception-type') ?? 'exception';
      const text = typeof body?.message === 'string' ? body.message : name;
      return this.fail(bedrockStreamErrorType(name), `${name}: ${text}`);
    }
    if (messageType === 'error') {
      const code = headerString(message, ':error-code') ?? 'error';
      return this.fail(
        bedrockStreamErrorType(code),
        `${code}: ${headerString(message, ':error-message') ?? ''}`,
      );
    }
    if (!body) return this.fail('upstream_error', 'Bedrock sent an unreadable stream event');
    const out: StreamEvent[] = [];
    this.event(headerString(message, ':event-type'), body, out);
    return out;
  }

  /** End of the byte stream: close what is open; a missing messageStop is an error. */
  end(): StreamEvent[] {
    const out: StreamEvent[] = [];
    this.closeOpen(out, false);
    if (!this.finished) {
      this.finished = true;
      out.push(streamError('upstream_error', 'Bedrock stream ended before messageStop'));
    }
    return out;
  }

  private event(type: string | undefined, body: JsonObject, out: StreamEvent[]): void {
    if (type !== 'metadata') this.ensureStarted(out);
    if (type === 'contentBlockStart') this.blockStart(body, out);
    else if (type === 'contentBlockDelta') this.blockDelta(body, out);
    else if (type === 'contentBlockStop') {
      if (this.open?.source === body.contentBlockIndex) this.closeOpen(out, true);
    } else if (type === 'messageStop') {
      this.closeOpen(out, true);
      this.finished = true;
      out.push({ type: 'finish', finishReason: bedrockFinishReason(body.stopReason) });
    } else if (type === 'metadata' && isRecord(body.usage)) {
      out.push({ type: 'usage', usage: bedrockUsage(body.usage) });
    }
  }

  private blockStart(body: JsonObject, out: StreamEvent[]): void {
    const start = isRecord(body.start) ? body.start : {};
    const toolUse = isRecord(start.toolUse) ? start.toolUse : undefined;
    if (!toolUse || typeof toolUse.name !== 'string') return;
    const id =
      typeof toolUse.toolUseId === 'string' && toolUse.toolUseId ? toolUse.toolUseId : this.newId('tooluse_');
    const block = this.openBlock(body.contentBlockIndex, 'tool', out);
    out.push({ type: 'tool_call_start', index: block.index, id, name: toolUse.name });
  }

  private blockDelta(body: JsonObject, out: StreamEvent[]): void {
    const delta = isRecord(body.delta) ? body.delta : {};
    if (isRecord(delta.reasoningContent)) {
      const block = this.current('reasoning', body.contentBlockIndex, out);
      const text = block.reasoning?.add(delta.reasoningContent);
      if (text) out.push({ type: 'reasoning_delta', index: block.index, text });
      return;
    }
    if (typeof delta.text === 'string' && delta.text !== '') {
      const block = this.current('text', body.contentBlockIndex, out);
      out.push({ type: 'text_delta', index: block.index, text: delta.text });
      return;
    }
    const input = isRecord(delta.toolUse) ? delta.toolUse.input : undefined;
    if (typeof input === 'string' && input !== '' && this.open?.kind === 'tool') {
      this.open.sentArguments = true;
      out.push({ type: 'tool_call_delta', index: this.open.index, argumentsDelta: input });
    }
    // Citation deltas have no canonical form.
  }

  /** The open block when it is this one, else a new block of that kind. */
  private current(kind: 'text' | 'reasoning', source: unknown, out: StreamEvent[]): OpenBlock {
    const open = this.open;
    return open?.kind === kind && open.source === source ? open : this.openBlock(source, kind, out);
  }

  private openBlock(source: unknown, kind: OpenBlock['kind'], out: StreamEvent[]): OpenBlock {
    this.closeOpen(out, true);
    const block: OpenBlock = {
      source: typeof source === 'number' ? source : -1,
      index: this.nextIndex++,
      kind,
      sentArguments: false,
    };
    this.open = block;
    if (kind === 'text') out.push({ type: 'text_start', index: block.index });
    if (kind === 'reasoning') {
      block.reasoning = new ReasoningAssembly();
      out.push({ type: 'reasoning_start', index: block.index });
    }
    return block;
  }

  /** `complete`: the block ended as Bedrock ends blocks, not cut off by an error. */
  private closeOpen(out: StreamEvent[], complete: boolean): void {
    const block = this.open;
    if (!block) return;
    // A tool without parameters may stream no input at all; callers still expect JSON.
    if (block.kind === 'tool' && !block.sentArguments) {
      out.push({ type: 'tool_call_delta', index: block.index, argumentsDelta: '{}' });
    }
    if (block.reasoning && complete) {
      const opaque = { vendor: 'bedrock' as const, data: block.reasoning.block() };
      out.push({ type: 'reasoning_opaque', index: block.index, opaque });
    }
    out.push({ type: 'block_stop', index: block.index });
    this.open = undefined;
  }

  private ensureStarted(out: StreamEvent[]): void {
    if (this.started) return;
    this.started = true;
    out.push({ type: 'start', id: this.newId('msg_'), model: this.options.model ?? '' });
  }

  /** Stops the stream with an error event; later input is ignored. */
  fail(errorType: string, message: string): StreamEvent[] {
    const out: StreamEvent[] = [];
    this.closeOpen(out, false);
    this.finished = true;
    this.failed = true;
    out.push(streamError(errorType, message));
    return out;
  }
}

/**
 * Event-stream bytes → canonical events in one real TransformStream. A framing or checksum
 * failure becomes a canonical error event (the caller's client gets an error in its own
 * format) and the rest of the bytes are ignored, since the framing can no longer be trusted.
 */
export function createConverseStreamDecoder(
  options: BedrockDecodeOptions = {},
): TransformStream<Uint8Array, StreamEvent> {
  const parser = new EventStreamParser();
  const mapper = new ConverseStreamMapper(options);
  let broken = false;
  const corrupt = (error: unknown): StreamEvent[] => {
    if (!(error instanceof EventStreamError)) throw error;
    broken = true;
    return mapper.fail('upstream_error', `Bedrock stream is corrupt: ${error.message}`);
  };
  return new TransformStream({
    transform(chunk, controller) {
      if (broken) return;
      parser.append(chunk);
      try {
        for (let message = parser.next(); message; message = parser.next()) {
          for (const event of mapper.message(message)) controller.enqueue(event);
        }
      } catch (error) {
        for (const event of corrupt(error)) controller.enqueue(event);
      }
    },
    flush(controller) {
      try {
        if (!broken) parser.end();
      } catch (error) {
        for (const event of corrupt(error)) controller.enqueue(event);
      }
      for (const event of mapper.end()) controller.enqueue(event);
    },
  });
}
