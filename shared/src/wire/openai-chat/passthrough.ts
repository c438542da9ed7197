import type { PassthroughPlan } from '../../canonical/ports';
import type { SseEvent } from '../../sse/decoder';
import { parseJsonData } from '../common/native-usage-reader';
import { isRecord } from '../common/usage';

/**
 * Chat completions only report streamed usage when asked (stream_options.include_usage), and
 * the ledger must never record 0 for a stream. So the gateway always asks; when the client had
 * not, the extra usage chunk (`choices: []`) is taken out again, since clients that index
 * choices[0] break on it.
 */
export function prepareChatPassthrough(body: Record<string, unknown>): PassthroughPlan {
  if (body.stream !== true) return { body };
  const options = isRecord(body.stream_options) ? body.stream_options : {};
  if (options.include_usage === true) return { body };
  return {
    body: { ...body, stream_options: { ...options, include_usage: true } },
    dropEvent: isUsageOnlyChunk,
  };
}

export function isUsageOnlyChunk(event: SseEvent): boolean {
  const chunk = parseJsonData(event.data);
  return (
    isRecord(chunk) && Array.isArray(chunk.choices) && chunk.choices.length === 0 && isRecord(chunk.usage)
  );
}
