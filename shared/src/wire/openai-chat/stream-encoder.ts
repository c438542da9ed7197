import type { StreamEvent } from '../../canonical/types';
import { customInput } from '../common/custom-tools';
import { formatId, nowSeconds } from '../common/ids';
import { type BlockEvent, createFramedEncoder, type FormatWriter, type SseOut } from '../common/stream-frame';
import { type CallShape, callShapes } from '../common/tool-shapes';
import { chatFinishReason, chatToolCallId, chatUsage } from './render-response';
import { sealedCallId } from './sealed-ids';

export interface ChatStreamOptions {
  /**
   * Send the usage chunk (`choices: []`) before `[DONE]`. OpenAI sends it only when the client
   * asked with stream_options.include_usage; clients that index choices[0] break on it.
   */
  includeUsage?: boolean;
  /**
   * How the client declared each tool (callShapes): calls of its custom tools go out whole, as
   * `custom` calls, when they end. Without it every call is a function call.
   */
  shapeOf?: (name: string) => CallShape;
}

type Delta = Record<string, unknown>;

function chatWriter(out: SseOut, clientModel: string, options: ChatStreamOptions): FormatWriter {
  const created = nowSeconds();
  let id = '';
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    out.json({ id, object: 'chat.completion.chunk', created, model: clientModel, choices, ...extra });
  const choice = (delta: Delta, finishReason: string | null = null) =>
    chunk([{ index: 0, delta, logprobs: null, finish_reason: finishReason }]);
  const shapeOf = options.shapeOf ?? callShapes(undefined);
  /** Tool index of the custom call being assembled, by block. */
  const customCalls = new Map<number, number>();
  /** The seal of the reasoning before the turn's tool calls: the first call carries it (sealed-ids.ts). */
  let pendingSeal: string | undefined;
  const callId = (canonicalId: string) => {
    const sealed = pendingSeal;
    pendingSeal = undefined;
    return sealedCallId(chatToolCallId(canonicalId), sealed);
  };
  const deltaFor = (event: BlockEvent): Delta | null => {
    switch (event.type) {
      case 'text_delta':
        return { content: event.text };
      case 'reasoning_delta':
        return { reasoning_content: event.text };
      case 'tool_call_start': {
        if (shapeOf(event.name).kind === 'custom') {
          customCalls.set(event.block, event.tool);
          return null;
        }
        const call = { index: event.tool, id: callId(event.id), type: 'function' };
        return { tool_calls: [{ ...call, function: { name: event.name, arguments: '' } }] };
      }
      case 'tool_call_delta':
        if (customCalls.has(event.block)) return null;
        return { tool_calls: [{ index: event.tool, function: { arguments: event.argumentsDelta } }] };
      case 'block_stop':
        return stopDelta(event);
      default:
        return null;
    }
  };
  /** A custom call goes out whole; a sealed reasoning block ends with its seal. */
  const stopDelta = (event: Extract<BlockEvent, { type: 'block_stop' }>): Delta | null => {
    const { part } = event;
    const tool = customCalls.get(event.block);
    if (part.type === 'tool_call' && tool !== undefined) {
      const call = { index: tool, id: callId(part.id), type: 'custom' };
      return { tool_calls: [{ ...call, custom: { name: part.name, input: customInput(part.arguments) } }] };
    }
    if (part.type === 'reasoning' && part.sealed) {
      pendingSeal = part.sealed;
      return { reasoning_details: [{ type: 'reasoning.encrypted', data: part.sealed, format: 'sluice' }] };
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
