import type { StreamEvent } from '../../canonical/types';
import { formatId, nowSeconds } from '../common/ids';
import { type BlockEvent, createFramedEncoder, type FormatWriter, type SseOut } from '../common/stream-frame';
import { chatFinishReason, chatToolCallId, chatUsage } from './render-response';

export interface ChatStreamOptions {
  /**
   * Send the usage chunk (`choices: []`) before `[DONE]`. OpenAI sends it only when the client
   * asked with stream_options.include_usage; clients that index choices[0] break on it.
   */
  includeUsage?: boolean;
}

type Delta = Record<string, unknown>;

function chatWriter(out: SseOut, clientModel: string, options: ChatStreamOptions): FormatWriter {
  const created = nowSeconds();
  let id = '';
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    out.json({ id, object: 'chat.completion.chunk', created, model: clientModel, choices, ...extra });
  const choice = (delta: Delta, finishReason: string | null = null) =>
    chunk([{ index: 0, delta, logprobs: null, finish_reason: finishReason }]);
  const deltaFor = (event: BlockEvent): Delta | null => {
    if (event.type === 'text_delta') return { content: event.text };
    if (event.type === 'tool_call_start') {
      const call = { index: event.tool, id: chatToolCallId(event.id), type: 'function' };
      return { tool_calls: [{ ...call, function: { name: event.name, arguments: '' } }] };
    }
    if (event.type === 'tool_call_delta') {
      return { tool_calls: [{ index: event.tool, function: { arguments: event.argumentsDelta } }] };
    }
    return null;
  };
  return {
    open(start) {
      id = formatId('chatcmpl-', start.id);
      choice({ role: 'assistant', content: '' });
    },
    block(event) {
      const delta = deltaFor(event);
      if (delta) choice(delta);
    },
    finish({ finishReason, usage }) {
      choice({}, chatFinishReason(finishReason));
      if (usage && options.includeUsage !== false) chunk([], { usage: chatUsage(usage) });
      out.event({ data: '[DONE]' });
    },
    // The SDK throws an APIError for any data chunk carrying `error`; no [DONE] follows.
    fail({ message, errorType }) {
      out.json({ error: { message, type: errorType } });
    },
  };
}

/** Canonical events → `data: {chunk}` lines ending in `data: [DONE]`. */
export function createChatStreamEncoder(
  clientModel: string,
  options: ChatStreamOptions = {},
): TransformStream<StreamEvent, Uint8Array> {
  return createFramedEncoder((out) => chatWriter(out, clientModel, options));
}
