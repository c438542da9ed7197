import type { StreamEvent, Usage } from '../../canonical/types';
import { type BlockEvent, createFramedEncoder, type FormatWriter, type SseOut } from '../common/stream-frame';
import { messagesMessageId, messagesStopReason, messagesToolUseId } from './render-response';
import { messagesUsage } from './usage';

/** Every event is named, and its `type` repeats the name (the SDK ignores unnamed events). */
function named(out: SseOut, type: string, payload: Record<string, unknown> = {}): void {
  out.json({ type, ...payload }, type);
}

function blockPayload(event: BlockEvent): [string, Record<string, unknown>] | null {
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
  }
}

function messagesWriter(out: SseOut, clientModel: string): FormatWriter {
  const zero: Usage = { inputTokens: 0, outputTokens: 0 };
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
