import type { CanonicalResponse } from '../../canonical/types';
import { nowSeconds } from '../common/ids';
import { outcomeFor, outputItems, responseId, responseObject, responsesUsage } from './response-object';

export function renderResponsesResponse(
  response: CanonicalResponse,
  clientModel: string,
  now: number = nowSeconds(),
): Record<string, unknown> {
  const id = responseId(response.id);
  const outcome = outcomeFor(response.finishReason);
  const itemStatus = outcome.status === 'completed' ? 'completed' : 'incomplete';
  return responseObject({
    id,
    createdAt: now,
    completedAt: now,
    model: clientModel,
    outcome,
    output: outputItems(response.content, id, itemStatus),
    usage: responsesUsage(response.usage),
  });
}
