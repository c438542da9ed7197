/**
 * The Responses API's objects and stream: `response` objects, the output items (reasoning,
 * message, function_call), and the named events OpenAI streams them with, reasoning summary
 * events included, every event carrying its `sequence_number`.
 */
import {
  type Answer,
  argumentFragments,
  asArray,
  asRecord,
  countWords,
  type JsonObject,
  wordDeltas,
} from './behaviour';
import { sseFrame } from './context';

export interface Reasoning {
  item: JsonObject;
  thought: string;
}

export interface Reply {
  result: Answer;
  reasoning?: Reasoning;
  cachedTokens: number;
}

export const reasoningTokens = (reply: Reply): number =>
  reply.reasoning ? countWords([reply.reasoning.thought]) : 0;

export function responsesUsage(reply: Reply): JsonObject {
  const { result } = reply;
  const output = result.outputTokens + reasoningTokens(reply);
  return {
    input_tokens: result.inputTokens,
    input_tokens_details: { cached_tokens: reply.cachedTokens },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: reasoningTokens(reply) },
    total_tokens: result.inputTokens + output,
  };
}

export interface Shell {
  id: string;
  createdAt: number;
  model: string;
  body: JsonObject;
}

export function responseObject(
  shell: Shell,
  status: string,
  output: unknown[],
  usage: JsonObject | null,
): JsonObject {
  const { body } = shell;
  const reasoning = asRecord(body.reasoning);
  return {
    id: shell.id,
    object: 'response',
    created_at: shell.createdAt,
    status,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: shell.model,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    prompt_cache_key: body.prompt_cache_key ?? null,
    reasoning: { effort: reasoning?.effort ?? null, summary: reasoning?.summary ?? null },
    store: body.store ?? true,
    temperature: body.temperature ?? 1,
    text: { format: { type: 'text' } },
    tool_choice: body.tool_choice ?? 'auto',
    tools: asArray(body.tools),
    top_p: body.top_p ?? 1,
    truncation: 'disabled',
    usage,
    user: null,
    metadata: {},
  };
}

function outputText(text: string): JsonObject {
  return { type: 'output_text', annotations: [], logprobs: [], text };
}

/** The finished answer item. */
export function answerItem(result: Answer, callId: string, itemId: string): JsonObject {
  if (result.kind === 'text') {
    const content = [outputText(result.text)];
    return { id: itemId, type: 'message', status: 'completed', content, role: 'assistant' };
  }
  const call = { arguments: result.arguments, call_id: callId, name: result.name };
  return { id: itemId, type: 'function_call', status: 'completed', ...call };
}

/** The events between output_item.added and output_item.done of the answer item. */
function answerEvents(result: Answer, item: JsonObject, outputIndex: number): Array<[string, JsonObject]> {
  const at = { item_id: item.id, output_index: outputIndex };
  if (result.kind === 'tool') {
    const deltas = argumentFragments(result.arguments).map((delta): [string, JsonObject] => [
      'response.function_call_arguments.delta',
      { ...at, delta },
    ]);
    return [...deltas, ['response.function_call_arguments.done', { ...at, arguments: result.arguments }]];
  }
  const part = { ...at, content_index: 0 };
  const deltas = wordDeltas(result.text).map((delta): [string, JsonObject] => [
    'response.output_text.delta',
    { ...part, delta, logprobs: [] },
  ]);
  return [
    ['response.content_part.added', { ...part, part: outputText('') }],
    ...deltas,
    ['response.output_text.done', { ...part, text: result.text, logprobs: [] }],
    ['response.content_part.done', { ...part, part: outputText(result.text) }],
  ];
}

/** A reasoning item's summary parts, streamed as OpenAI streams them. */
function reasoningEvents(item: JsonObject): Array<[string, JsonObject]> {
  const at = { item_id: item.id, output_index: 0 };
  const events: Array<[string, JsonObject]> = [];
  for (const [summaryIndex, value] of asArray(item.summary).entries()) {
    const text = String(asRecord(value)?.text ?? '');
    const part = { ...at, summary_index: summaryIndex };
    events.push([
      'response.reasoning_summary_part.added',
      { ...part, part: { type: 'summary_text', text: '' } },
    ]);
    for (const delta of wordDeltas(text))
      events.push(['response.reasoning_summary_text.delta', { ...part, delta }]);
    events.push(['response.reasoning_summary_text.done', { ...part, text }]);
    events.push(['response.reasoning_summary_part.done', { ...part, part: { type: 'summary_text', text } }]);
  }
  return events;
}

export function streamFrames(shell: Shell, reply: Reply, output: JsonObject[]): string[] {
  const inProgress = responseObject(shell, 'in_progress', [], null);
  const events: Array<[string, JsonObject]> = [
    ['response.created', { response: inProgress }],
    ['response.in_progress', { response: inProgress }],
  ];
  for (const [index, item] of output.entries()) {
    if (item.type === 'reasoning') {
      const { encrypted_content: _sealed, ...started } = item;
      events.push(['response.output_item.added', { output_index: index, item: { ...started, summary: [] } }]);
      events.push(...reasoningEvents(item));
    } else {
      const pending = item.type === 'message' ? { content: [] } : { arguments: '' };
      events.push([
        'response.output_item.added',
        { output_index: index, item: { ...item, status: 'in_progress', ...pending } },
      ]);
      events.push(...answerEvents(reply.result, item, index));
    }
    events.push(['response.output_item.done', { output_index: index, item }]);
  }
  const completed = responseObject(shell, 'completed', output, responsesUsage(reply));
  events.push(['response.completed', { response: completed }]);
  return events.map(([type, data], n) => sseFrame({ type, ...data, sequence_number: n }, type));
}
