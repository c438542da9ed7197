/**
 * Which OpenAI API a translated request goes to, and reading whichever one answered.
 *
 * A route picks the API (`config.api`), but an adapter parses answers and streams without
 * seeing the route; the two APIs' answers tell themselves apart, so the adapter reads each by
 * its shape: a Response object has `output` (chat completions have `choices`), and every
 * Responses stream event is typed (`response.*`, `error`) where chat chunks carry no `type`.
 */
import type { UpstreamTarget } from '../../canonical/ports';
import type { CanonicalResponse, StreamEvent } from '../../canonical/types';
import type { SseEvent } from '../../sse/decoder';
import { asRecord, asString, parseJsonObject } from '../common/json';
import type { SseEventMapper } from '../common/sse-stream';
import { parseOpenAiResponse } from './response';
import { parseResponsesResponse } from './responses-response';
import { ResponsesStreamMapper } from './responses-stream';
import { OpenAiStreamMapper } from './stream';

export type OpenAiApiName = 'chat_completions' | 'responses';

/** The route's `config.api` when it names one, else the provider type's default. */
export function apiFor(target: UpstreamTarget, fallback: OpenAiApiName): OpenAiApiName {
  const configured = target.config.api;
  return configured === 'chat_completions' || configured === 'responses' ? configured : fallback;
}

function isResponseObject(body: unknown): boolean {
  const root = asRecord(body);
  return root !== undefined && (root.object === 'response' || (Array.isArray(root.output) && !root.choices));
}

export function parseOpenAiFamilyResponse(body: unknown): CanonicalResponse {
  return isResponseObject(body) ? parseResponsesResponse(body) : parseOpenAiResponse(body);
}

function isResponsesEvent(event: SseEvent): boolean {
  if (event.event?.startsWith('response.')) return true;
  const data = parseJsonObject(event.data);
  return data !== undefined && asString(data.type) !== undefined;
}

/** Decides on the first event which API's stream this is, then hands every event to its mapper. */
export class OpenAiFamilyStreamMapper implements SseEventMapper {
  private mapper: SseEventMapper | undefined;

  onEvent(event: SseEvent): StreamEvent[] {
    this.mapper ??= isResponsesEvent(event) ? new ResponsesStreamMapper() : new OpenAiStreamMapper();
    return this.mapper.onEvent(event);
  }

  onEnd(): StreamEvent[] {
    // No event at all: either mapper reports the stream as cut off.
    this.mapper ??= new OpenAiStreamMapper();
    return this.mapper.onEnd();
  }
}
