import { isSealed } from '../../canonical/reasoning';
import { isRecord } from '../../util/json';
import { splitCallId } from './sealed-ids';

type Message = Record<string, unknown>;

const isSealedDetail = (detail: unknown): boolean => isRecord(detail) && isSealed(detail.data);
const carriesSeal = (id: unknown): boolean => typeof id === 'string' && splitCallId(id).sealed !== undefined;

const isSealedMessage = (message: unknown): message is Message => isRecord(message) && hasSeal(message);

function hasSeal(message: Message): boolean {
  if (carriesSeal(message.tool_call_id)) return true;
  if (Array.isArray(message.reasoning_details) && message.reasoning_details.some(isSealedDetail)) return true;
  return (
    Array.isArray(message.tool_calls) &&
    message.tool_calls.some((call) => isRecord(call) && carriesSeal(call.id))
  );
}

/** The message without the gateway's seals: reasoning_details entries out, call ids as the vendor made them. */
function unsealed(message: Message): Message {
  const { reasoning_details: details, ...rest } = message;
  const out: Message = rest;
  const kept = Array.isArray(details) ? details.filter((detail) => !isSealedDetail(detail)) : [];
  if (kept.length > 0) out.reasoning_details = kept;
  if (typeof out.tool_call_id === 'string') out.tool_call_id = splitCallId(out.tool_call_id).id;
  if (Array.isArray(out.tool_calls)) {
    out.tool_calls = out.tool_calls.map((call) =>
      isRecord(call) && typeof call.id === 'string' ? { ...call, id: splitCallId(call.id).id } : call,
    );
  }
  return out;
}

/**
 * A Chat Completions body passed through: Chat Completions takes no reasoning back, so the
 * gateway's seals a client kept (in `reasoning_details`, on tool call ids) are taken out before
 * the vendor sees them. Nothing is opened, so this is synchronous work; async only to fit
 * WireFormat.restoreReasoning.
 */
export async function restoreChatReasoning(body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { messages } = body;
  // Nothing to strip: the body itself, not a copy.
  if (!Array.isArray(messages) || !messages.some(isSealedMessage)) return body;
  return {
    ...body,
    messages: messages.map((message) => (isSealedMessage(message) ? unsealed(message) : message)),
  };
}
