import type { PassthroughPlan } from '../../canonical/ports';
import type { Usage } from '../../canonical/types';
import {
  createNativeUsageReader,
  type NativeUsageReader,
  parseJsonData,
  type UsageObserver,
} from '../common/native-usage-reader';
import { isRecord, openAiUsageFrom } from '../common/usage';

/** `usage` of a chat completion (or of its final stream chunk): prompt_tokens includes cache hits. */
export function chatUsageFrom(usage: unknown): Usage | null {
  return openAiUsageFrom(usage, {
    input: 'prompt_tokens',
    output: 'completion_tokens',
    inputDetails: 'prompt_tokens_details',
    outputDetails: 'completion_tokens_details',
  });
}

/** Usage from a native non-streaming chat completion body (passthrough). */
export function chatUsageFromResponse(body: unknown): Usage | null {
  return isRecord(body) ? chatUsageFrom(body.usage) : null;
}

/**
 * Usage from native chat SSE bytes: the chunk that carries a non-null `usage` (the final
 * `choices: []` chunk when stream_options.include_usage was set). Bytes pass through untouched.
 */
export const chatStreamUsage: UsageObserver = (event, current) => {
  const chunk = parseJsonData(event.data);
  return (isRecord(chunk) ? chatUsageFrom(chunk.usage) : null) ?? current;
};

export function createChatNativeUsageReader(plan?: PassthroughPlan): NativeUsageReader {
  return createNativeUsageReader(chatStreamUsage, { drop: plan?.dropEvent, clientModel: plan?.clientModel });
}
