import type {
  CanonicalRequest,
  CanonicalResponse,
  ContentPart,
  StreamEvent,
  TextPart,
  ToolCallPart,
} from '../canonical/types';
import { type Redactor, releasable } from './redact-text';

/** The request as it leaves for the upstream: every text it carries redacted. */
export function redactRequest(request: CanonicalRequest, redactor: Redactor): CanonicalRequest {
  return {
    ...request,
    system: request.system.map((part) => ({ ...part, text: redactor.redact(part.text) })),
    messages: request.messages.map((message) => ({
      ...message,
      content: message.content.map((part) => redactPart(part, redactor)),
    })),
  };
}

function redactPart(part: ContentPart, redactor: Redactor): ContentPart {
  switch (part.type) {
    case 'text':
      return { ...part, text: redactor.redact(part.text) };
    case 'tool_call':
      return { ...part, arguments: redactor.redact(part.arguments) };
    case 'tool_result':
      return { ...part, content: part.content.map((inner) => redactPart(inner, redactor) as typeof inner) };
    default:
      return part;
  }
}

/** A whole answer as it goes back to the client. */
export function redactResponse(response: CanonicalResponse, redactor: Redactor): CanonicalResponse {
  return {
    ...response,
    content: response.content.map((part) => redactPart(part, redactor) as TextPart | ToolCallPart),
  };
}

/**
 * A streamed answer as it goes back: each block's text (and tool-call arguments) is held back
 * by at most STREAM_HOLD_CHARS, so a match split across chunks is still caught, and sent
 * redacted; a block's rest goes out before it stops (and before the answer finishes or fails).
 */
export function createStreamRedaction(redactor: Redactor): TransformStream<StreamEvent, StreamEvent> {
  const pending = new Map<number, { text: string; kind: 'text' | 'tool' }>();
  const delta = (index: number, kind: 'text' | 'tool', text: string): StreamEvent =>
    kind === 'text'
      ? { type: 'text_delta', index, text }
      : { type: 'tool_call_delta', index, argumentsDelta: text };
  const flush = (index: number, controller: TransformStreamDefaultController<StreamEvent>) => {
    const held = pending.get(index);
    pending.delete(index);
    if (held && held.text !== '') controller.enqueue(delta(index, held.kind, redactor.redact(held.text)));
  };
  const flushAll = (controller: TransformStreamDefaultController<StreamEvent>) => {
    for (const index of [...pending.keys()]) flush(index, controller);
  };
  const add = (
    index: number,
    kind: 'text' | 'tool',
    text: string,
    controller: TransformStreamDefaultController<StreamEvent>,
  ) => {
    const held = (pending.get(index)?.text ?? '') + text;
    const { out, kept } = releasable(held, redactor, false);
    pending.set(index, { text: kept, kind });
    if (out !== '') controller.enqueue(delta(index, kind, out));
  };
  return new TransformStream<StreamEvent, StreamEvent>({
    transform(event, controller) {
      if (event.type === 'text_delta') return add(event.index, 'text', event.text, controller);
      if (event.type === 'tool_call_delta') return add(event.index, 'tool', event.argumentsDelta, controller);
      if (event.type === 'block_stop') flush(event.index, controller);
      else if (event.type === 'finish' || event.type === 'error') flushAll(controller);
      controller.enqueue(event);
    },
    flush: flushAll,
  });
}
