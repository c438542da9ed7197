import type { PassthroughOptions, PassthroughPlan } from '../../canonical/ports';
import { renameModelInBody, renameModelInData } from './rename-model';

/**
 * The plan of a format whose streams report usage unasked (Messages, Responses): the body as
 * the client sent it, and, under an alias, the client's model name put back in the stream's
 * events and at the root of a non-streamed answer.
 */
export function renamingPlan(
  body: Record<string, unknown>,
  { clientModel }: PassthroughOptions,
): PassthroughPlan {
  if (clientModel === undefined) return { body };
  return {
    body,
    editEvent: (event) => renameModelInData(event.data, clientModel),
    editBody: (json) => renameModelInBody(json, clientModel),
  };
}
