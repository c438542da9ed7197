import type { CanonicalRequest, CanonicalResponse } from '../../canonical/types';
import { nowSeconds } from '../common/ids';
import { callShapes } from '../common/tool-shapes';
import { outcomeFor, outputItems, responseId, responseObject, responsesUsage } from './response-object';

export function renderResponsesResponse(
  response: CanonicalResponse,
  clientModel: string,
  now: number = nowSeconds(),
  request?: CanonicalRequest,
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
    output: outputItems(response.content, id, itemStatus, callShapes(request)),
    usage: responsesUsage(response.usage),
  });
}
