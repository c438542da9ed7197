import type { PassthroughPlan } from '../../canonical/ports';
import type { Usage } from '../../canonical/types';
import {
  createNativeUsageReader,
  type NativeUsageReader,
  parseJsonData,
  type UsageObserver,
} from '../common/native-usage-reader';
import { isRecord, openAiUsageFrom } from '../common/usage';

/** `usage` of a Response object: input_tokens include cached tokens, as canonically. */
export function responsesUsageFrom(usage: unknown): Usage | null {
  return openAiUsageFrom(usage, {
    input: 'input_tokens',
    output: 'output_tokens',
    inputDetails: 'input_tokens_details',
    outputDetails: 'output_tokens_details',
  });
}

/** Usage from a native non-streaming Response body (passthrough). */
export function responsesUsageFromResponse(body: unknown): Usage | null {
  return isRecord(body) ? responsesUsageFrom(body.usage) : null;
}

/** The terminal events carry the whole Response, usage included. */
const TERMINAL = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/** Usage from native Responses SSE bytes (the terminal response.* event). Bytes pass through. */
export const responsesStreamUsage: UsageObserver = (event, current) => {
  const data = parseJsonData(event.data);
  if (!isRecord(data) || typeof data.type !== 'string' || !TERMINAL.has(data.type)) return current;
  return (isRecord(data.response) ? responsesUsageFrom(data.response.usage) : null) ?? current;
};

export function createResponsesNativeUsageReader(plan?: PassthroughPlan): NativeUsageReader {
  return createNativeUsageReader(responsesStreamUsage, {
    drop: plan?.dropEvent,
    clientModel: plan?.clientModel,
  });
}
