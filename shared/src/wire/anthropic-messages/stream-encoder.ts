import type { StreamEvent, Usage } from '../../canonical/types';
import { type BlockEvent, createFramedEncoder, type FormatWriter, type SseOut } from '../common/stream-frame';
import { messagesMessageId, messagesStopReason, messagesToolUseId } from './render-response';
import { messagesUsage } from './usage';

/** Every event is named, and its `type` repeats the name (the SDK ignores unnamed events). */
function named(out: SseOut, type: string, payload: Record<string, unknown> = {}): void {
  out.json({ type, ...payload }, type);
}

type Payload = [string, Record<string, unknown>];

function blockPayload(event: BlockEvent): Payload | null {
  const index = event.block;
  switch (event.type) {
    case 'text_start':
      return ['content_block_start', { index, content_block: { type: 'text', text: '' } }];
    case 'text_delta':
      return ['content_block_delta', { index, delta: { type: 'text_delta', text: event.text } }];
    case 'tool_call_start': {
      const block = { type: 'tool_use', id: messagesToolUseId(event.id), name: event.name, input: {} };
      return ['content_block_start', { index, content_block: block }];
    }
    case 'tool_call_delta':
      return [
        'content_block_delta',
        { index, delta: { type: 'input_json_delta', partial_json: event.argumentsDelta } },
      ];
    case 'block_stop':
      return ['content_block_stop', { index }];
    default:
      return null;
  }
}

const THINKING_START = { type: 'thinking', thinking: '', signature: '' };

/**
 * Reasoning blocks open late: a block Anthropic itself produced may not be a thinking block
 * (redacted_thinking, a server tool's), which only its opaque form says. So the start waits for
 * the first text or the opaque form, and a block with neither opens as an empty thinking block.
 */
class ReasoningBlocks {
  private readonly opened = new Set<number>();

  constructor(private readonly emit: (payload: Payload) => void) {}

  handle(event: BlockEvent): boolean {
    if (event.type === 'reasoning_start') return true;
    if (event.type === 'reasoning_delta') {
      this.open(event.block, THINKING_START);
      const delta = { type: 'thinking_delta', thinking: event.text };
      this.emit(['content_block_delta', { index: event.block, delta }]);
      return true;
    }
    if (event.type === 'reasoning_opaque') {
      this.opaque(event.block, event);
      return true;
    }
    if (event.type === 'block_stop' && event.part.type === 'reasoning')
      this.open(event.block, THINKING_START);
    return false;
  }

  private opaque(index: number, event: Extract<BlockEvent, { type: 'reasoning_opaque' }>): void {
    const native = event.opaque?.vendor === 'anthropic' ? event.opaque.data : undefined;
    if (native && !this.opened.has(index)) {
      this.open(index, native);
      return;
    }
    this.open(index, THINKING_START);
    const signature = native ? native.signature : event.sealed;
    if (typeof signature === 'string' && signature !== '') {
      this.emit(['content_block_delta', { index, delta: { type: 'signature_delta', signature } }]);
    }
  }

  private open(index: number, block: Record<string, unknown>): void {
    if (this.opened.has(index)) return;
    this.opened.add(index);
    this.emit(['content_block_start', { index, content_block: block }]);
  }
}

function messagesWriter(out: SseOut, clientModel: string): FormatWriter {
  const zero: Usage = { inputTokens: 0, outputTokens: 0 };
  const reasoning = new ReasoningBlocks(([name, payload]) => named(out, name, payload));
  return {
    open({ id, usage }) {
      const message = {
        id: messagesMessageId(id),
        type: 'message',
        role: 'assistant',
        content: [],
        model: clientModel,
        stop_reason: null,
        stop_sequence: null,
        // Input tokens are known here only if the upstream reported them up front; the SDK
        // takes the counts repeated in message_delta as the final word.
        usage: messagesUsage(usage ?? zero),
      };
      named(out, 'message_start', { message });
      named(out, 'ping');
    },
    block(event) {
      if (reasoning.handle(event)) return;
      const payload = blockPayload(event);
      if (payload) named(out, payload[0], payload[1]);
    },
    finish({ finishReason, usage }) {
      const delta = { stop_reason: messagesStopReason(finishReason), stop_sequence: null };
      named(out, 'message_delta', { delta, usage: messagesUsage(usage ?? zero) });
      named(out, 'message_stop');
    },
    fail({ message, errorType }) {
      named(out, 'error', { error: { type: errorType, message } });
    },
  };
}

/** Canonical events → named Messages events, message_start through message_stop. */
export function createMessagesStreamEncoder(clientModel: string): TransformStream<StreamEvent, Uint8Array> {
  return createFramedEncoder((out) => messagesWriter(out, clientModel));
}
