import type { WireFormatName } from '../../canonical/ports';
import { asArray, asRecord, asString, tryParseJson } from '../../util/json';

/** What a trace tells of an answer (gen_ai.response.finish_reasons and gen_ai.response.id). */
export interface AnswerFacts {
  finishReasons: string[];
  id: string | undefined;
}

/**
 * Why the model stopped, as the answer the client got says it: Chat Completions' `finish_reason`
 * of each choice, Messages' `stop_reason`, a Response's `status` (and its
 * `incomplete_details.reason` when it is incomplete); and the answer's id. Read from the
 * client's body once it is whole, only for a traced request: the answer path never looks.
 */
export function answerFactsIn(format: WireFormatName, body: string, stream: boolean): AnswerFacts {
  const facts = { reasons: new Set<string>(), id: undefined as string | undefined };
  const texts = stream ? sseData(body) : [body];
  for (const text of texts) {
    const json = asRecord(tryParseJson(text));
    if (!json) continue;
    READERS[format](json, facts.reasons);
    facts.id ??= ID_OF[format](json);
  }
  return { finishReasons: [...facts.reasons], id: facts.id };
}

type Reader = (json: Record<string, unknown>, into: Set<string>) => void;

/** Where each format names its answer: every chunk, message_start's message, the Response. */
const ID_OF: Record<WireFormatName, (json: Record<string, unknown>) => string | undefined> = {
  'openai-chat': (json) => asString(json.id),
  'anthropic-messages': (json) => asString((asRecord(json.message) ?? json).id),
  'openai-responses': (json) => asString((json.object === 'response' ? json : asRecord(json.response))?.id),
};

const add = (into: Set<string>, value: unknown): void => {
  const reason = asString(value);
  if (reason) into.add(reason);
};

const READERS: Record<WireFormatName, Reader> = {
  'openai-chat': (json, into) => {
    for (const choice of asArray(json.choices) ?? []) add(into, asRecord(choice)?.finish_reason);
  },
  'anthropic-messages': (json, into) => {
    // A stream says it in message_delta's delta; a whole message at its top level.
    add(into, asRecord(json.delta)?.stop_reason ?? json.stop_reason);
  },
  'openai-responses': (json, into) => {
    const response = json.object === 'response' ? json : asRecord(json.response);
    if (!response || !TERMINAL.has(asString(response.status) ?? '')) return;
    add(into, response.status);
    add(into, asRecord(response.incomplete_details)?.reason);
  },
};

/** A Response's status once it is over (stream events carry it in progress too). */
const TERMINAL = new Set(['completed', 'incomplete', 'failed', 'cancelled']);

/** Each event's data of an SSE text (one data line per event, as every vendor sends). */
function sseData(text: string): string[] {
  const data: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith('data:')) data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
  }
  return data;
}
