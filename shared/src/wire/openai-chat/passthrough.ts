import type { PassthroughOptions, PassthroughPlan } from '../../canonical/ports';
import type { SseEvent } from '../../sse/decoder';
import { parseJsonData } from '../common/native-usage-reader';
import { isRecord } from '../common/usage';

/**
 * Chat completions only report streamed usage when asked (stream_options.include_usage), and
 * the ledger must never record 0 for a stream. So the gateway always asks; when the client had
 * not, the extra usage chunk (`choices: []`) is taken out again, since clients that index
 * choices[0] break on it. Every chunk names the model: under an alias, the client's name.
 */
export function prepareChatPassthrough(
  body: Record<string, unknown>,
  { clientModel }: PassthroughOptions = {},
): PassthroughPlan {
  const renamed = clientModel === undefined ? {} : { clientModel };
  const options = isRecord(body.stream_options) ? body.stream_options : {};
  if (body.stream !== true || options.include_usage === true) return { body, ...renamed };
  return {
    body: { ...body, stream_options: { ...options, include_usage: true } },
    dropEvent: isUsageOnlyChunk,
    ...renamed,
  };
}

export function isUsageOnlyChunk(event: SseEvent): boolean {
  // Most chunks carry no usage: only those are parsed.
  if (!event.data.includes('"usage"')) return false;
  const chunk = parseJsonData(event.data);
  return (
    isRecord(chunk) && Array.isArray(chunk.choices) && chunk.choices.length === 0 && isRecord(chunk.usage)
  );
}
