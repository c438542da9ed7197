import type { PassthroughOptions, PassthroughPlan } from '../../canonical/ports';
import type { SseEvent } from '../../sse/decoder';
import { parseJsonData } from '../common/native-usage-reader';
import { renamingPlan } from '../common/passthrough-plan';
import { isRecord } from '../common/usage';

/**
 * Chat completions only report streamed usage when asked (stream_options.include_usage), and
 * the ledger must never record 0 for a stream. So the gateway always asks; when the client had
 * not, the extra usage chunk (`choices: []`) is taken out again, since clients that index
 * choices[0] break on it. Every chunk names the model: under an alias, the client's name.
 */
export function prepareChatPassthrough(
  body: Record<string, unknown>,
  options?: PassthroughOptions,
): PassthroughPlan {
  const streamOptions = isRecord(body.stream_options) ? body.stream_options : {};
  if (body.stream !== true || streamOptions.include_usage === true) return renamingPlan(body, options);
  const asked = { ...body, stream_options: { ...streamOptions, include_usage: true } };
  return { ...renamingPlan(asked, options), dropEvent: isUsageOnlyChunk };
}

/** Only offered chunks that hold a usage object (PassthroughPlan.dropEvent), so each is parsed. */
export function isUsageOnlyChunk(event: SseEvent): boolean {
  const chunk = parseJsonData(event.data);
  return (
    isRecord(chunk) && Array.isArray(chunk.choices) && chunk.choices.length === 0 && isRecord(chunk.usage)
  );
}
