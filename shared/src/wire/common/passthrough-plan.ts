import type { PassthroughOptions, PassthroughPlan } from '../../canonical/ports';

/**
 * The plan of a format whose streams report usage unasked (Messages, Responses): the body as
 * the client sent it, and, under an alias, the client's name for the model in the answer.
 * Chat's plan starts from it (openai-chat/passthrough.ts).
 */
export function renamingPlan(
  body: Record<string, unknown>,
  { clientModel }: PassthroughOptions = {},
): PassthroughPlan {
  return clientModel === undefined ? { body } : { body, clientModel };
}
