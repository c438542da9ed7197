import type {
  AnswerPart,
  CanonicalMessage,
  CanonicalRequest,
  CanonicalResponse,
  ContentPart,
  ReasoningOpaque,
  ReasoningVendor,
  StreamEvent,
} from '../canonical/types';
import type { ReasoningSeal } from './reasoning-seal';

/**
 * Where reasoning crosses formats (docs/agents.md): what a vendor produced reaches a client of
 * another family sealed, and comes back opened. A client of the vendor's own family (Messages
 * for Anthropic, Responses for OpenAI) gets the vendor's form as it is.
 */

/** Some message carries reasoning the gateway sealed (the parsers mark it: `sealed`). */
export function hasSealed(messages: readonly CanonicalMessage[]): boolean {
  return messages.some((message) => message.content.some((part) => part.type === 'reasoning' && part.sealed));
}

async function openPart(part: ContentPart, seal: ReasoningSeal): Promise<ContentPart> {
  if (part.type !== 'reasoning' || part.sealed === undefined) return part;
  const opaque = await seal.open(part.sealed, part.field ?? 'reasoning');
  const { sealed: _sealed, field: _field, ...rest } = part;
  return opaque ? { ...rest, opaque } : rest;
}

/** A request whose sealed reasoning is opened into the vendors' own forms (none sealed: as it is). */
export async function openSealedReasoning(
  request: CanonicalRequest,
  seal: ReasoningSeal,
): Promise<CanonicalRequest> {
  if (!hasSealed(request.messages)) return request;
  const messages = await Promise.all(
    request.messages.map(async (message) => ({
      ...message,
      content: await Promise.all(message.content.map((part) => openPart(part, seal))),
    })),
  );
  return { ...request, messages };
}

/** Sealed unless the client's format carries this vendor's reasoning itself. */
function needsSeal(
  opaque: ReasoningOpaque | undefined,
  client: ReasoningVendor | undefined,
): opaque is ReasoningOpaque {
  return opaque !== undefined && opaque.vendor !== client;
}

async function sealPart(
  part: AnswerPart,
  client: ReasoningVendor | undefined,
  seal: ReasoningSeal,
): Promise<AnswerPart> {
  if (part.type !== 'reasoning' || !needsSeal(part.opaque, client)) return part;
  const { opaque, ...rest } = part;
  return { ...rest, sealed: await seal.seal(opaque) };
}

export async function sealAnswerReasoning(
  response: CanonicalResponse,
  client: ReasoningVendor | undefined,
  seal: ReasoningSeal,
): Promise<CanonicalResponse> {
  if (!response.content.some((part) => part.type === 'reasoning' && needsSeal(part.opaque, client)))
    return response;
  const content = await Promise.all(response.content.map((part) => sealPart(part, client, seal)));
  return { ...response, content };
}

/**
 * The same for a stream: each reasoning block's opaque form is sealed as it passes. Every other
 * event passes at once (no promise of its own); only a seal is waited for.
 */
export function createReasoningSealStage(
  client: ReasoningVendor | undefined,
  seal: ReasoningSeal,
): TransformStream<StreamEvent, StreamEvent> {
  return new TransformStream({
    transform(event, controller) {
      if (event.type !== 'reasoning_opaque' || !needsSeal(event.opaque, client)) {
        controller.enqueue(event);
        return;
      }
      const { index } = event;
      return seal.seal(event.opaque).then((sealed) => {
        controller.enqueue({ type: 'reasoning_opaque', index, sealed });
      });
    },
  });
}
