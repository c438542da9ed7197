/**
 * Chat Completions stream (`data: {chunk}` … `data: [DONE]`) → canonical events.
 *
 * Chunks carry deltas for choice 0: text in `content`, tool calls as fragments keyed by
 * `index` (the first fragment of a call carries its id and name), and on some compatible
 * servers reasoning text in `reasoning_content` (a reasoning block, text only). Canonical blocks
 * are sequential, so a block is closed when another one starts or the choice finishes.
 */
import type { StreamEvent, Usage } from '../../canonical/types';
import type { SseEvent } from '../../sse/decoder';
import { streamError } from '../common/errors';
import {
  asArray,
  asNumber,
  asRecord,
  asString,
  isRecord,
  type JsonObject,
  parseJsonObject,
} from '../common/json';
import type { SseEventMapper } from '../common/sse-stream';
import { readOpenAiError } from './errors';
import { chatReasoningText, mapOpenAiFinishReason, parseOpenAiUsage } from './response';

interface ToolBlock {
  index: number;
  id: string | undefined;
}

export class OpenAiStreamMapper implements SseEventMapper {
  private started = false;
  private finished = false;
  private done = false;
  private nextIndex = 0;
  private open: { kind: 'text' | 'reasoning' | 'tool'; index: number } | undefined;
  private readonly toolBlocks = new Map<number | string, ToolBlock>();
  private lastToolKey: number | string | undefined;
  /** Held until the end: some servers repeat usage on every chunk, and one event is owed. */
  private usage: Usage | undefined;

  onEvent(event: SseEvent): StreamEvent[] {
    const out: StreamEvent[] = [];
    if (this.done) return out;
    if (event.data.trim() === '[DONE]') {
      this.end(out);
      return out;
    }
    const chunk = parseJsonObject(event.data);
    if (!chunk) return this.fail(out, 'upstream_error', 'Upstream sent an unreadable stream chunk');
    if (chunk.error !== undefined && chunk.error !== null) {
      const { type, message } = readOpenAiError(chunk);
      return this.fail(out, type ?? 'upstream_error', message ?? 'Upstream stream failed');
    }
    const choices = asArray(chunk.choices);
    // Azure opens with an id-less, choice-less chunk of prompt filter results: not the start.
    if (!this.started && (asString(chunk.id) || choices.length > 0)) {
      this.started = true;
      out.push({ type: 'start', id: asString(chunk.id) ?? '', model: asString(chunk.model) ?? '' });
    }
    for (const value of choices) {
      const choice = asRecord(value);
      if (choice && (asNumber(choice.index) ?? 0) === 0) this.onChoice(choice, out);
    }
    if (isRecord(chunk.usage)) this.usage = parseOpenAiUsage(chunk.usage);
    return out;
  }

  onEnd(): StreamEvent[] {
    const out: StreamEvent[] = [];
    if (this.done) return out;
    // Without a finish_reason the answer was cut off; say so rather than look complete.
    if (!this.finished) return this.fail(out, 'upstream_error', 'Upstream stream ended before completion');
    this.end(out);
    return out;
  }

  private onChoice(choice: JsonObject, out: StreamEvent[]): void {
    const delta = asRecord(choice.delta);
    if (delta) {
      const reasoning = chatReasoningText(delta);
      if (reasoning) this.textual('reasoning', reasoning, out);
      // A refusal streams in place of content; surface it as text like content.
      const text = asString(delta.content) || asString(delta.refusal);
      if (text) this.textual('text', text, out);
      for (const call of asArray(delta.tool_calls)) if (isRecord(call)) this.toolCall(call, out);
    }
    const reason = asString(choice.finish_reason);
    if (reason && !this.finished) {
      this.finished = true;
      this.closeOpen(out);
      out.push({ type: 'finish', finishReason: mapOpenAiFinishReason(reason) });
    }
  }

  private textual(kind: 'text' | 'reasoning', text: string, out: StreamEvent[]): void {
    if (this.open?.kind !== kind) {
      this.closeOpen(out);
      this.open = { kind, index: this.nextIndex++ };
      out.push({ type: kind === 'text' ? 'text_start' : 'reasoning_start', index: this.open.index });
    }
    const { index } = this.open;
    out.push(
      kind === 'text' ? { type: 'text_delta', index, text } : { type: 'reasoning_delta', index, text },
    );
  }

  private toolCall(call: JsonObject, out: StreamEvent[]): void {
    const id = asString(call.id) || undefined;
    const fn = asRecord(call.function);
    // `index` routes fragments; servers that omit it send whole calls, told apart by id.
    const key = asNumber(call.index) ?? id ?? this.lastToolKey ?? 0;
    this.lastToolKey = key;
    let block = this.toolBlocks.get(key);
    // A new id under a known index means a server that reuses index 0 for every call.
    if (!block || (id !== undefined && block.id !== undefined && id !== block.id)) {
      this.closeOpen(out);
      block = { index: this.nextIndex++, id };
      this.toolBlocks.set(key, block);
      this.open = { kind: 'tool', index: block.index };
      const name = asString(fn?.name) ?? '';
      out.push({ type: 'tool_call_start', index: block.index, id: id ?? `call_${block.index}`, name });
    }
    // Fragments for an already-closed call (interleaving no known server does) keep their
    // own index rather than being dropped.
    const args = asString(fn?.arguments);
    if (args) out.push({ type: 'tool_call_delta', index: block.index, argumentsDelta: args });
  }

  private closeOpen(out: StreamEvent[]): void {
    if (this.open) out.push({ type: 'block_stop', index: this.open.index });
    this.open = undefined;
  }

  private end(out: StreamEvent[]): void {
    this.done = true;
    this.closeOpen(out);
    // `[DONE]` means a complete answer even from servers that never set finish_reason.
    if (!this.finished) {
      this.finished = true;
      out.push({ type: 'finish', finishReason: this.toolBlocks.size > 0 ? 'tool_calls' : 'stop' });
    }
    if (this.usage) out.push({ type: 'usage', usage: this.usage });
  }

  private fail(out: StreamEvent[], errorType: string, message: string): StreamEvent[] {
    this.done = true;
    out.push(streamError(errorType, message));
    return out;
  }
}
