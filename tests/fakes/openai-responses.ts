/**
 * The OpenAI Responses API (`POST /v1/responses`): `response` objects with message and
 * function_call output items, and the named-event stream (response.created …
 * response.completed), every event carrying its `sequence_number`.
 */
import {
  type Answer,
  answer,
  argumentFragments,
  asArray,
  asRecord,
  asString,
  type Conversation,
  fakeId,
  isRecord,
  type JsonObject,
  wordDeltas,
} from './behaviour';
import {
  type FakeContext,
  runScenario,
  SSE_HEADERS,
  sendAnswer,
  sendError,
  sseFrame,
  writeStream,
} from './context';
import { openAiError } from './openai-chat';

function itemText(content: unknown): string {
  if (typeof content === 'string') return content;
  const texts: string[] = [];
  for (const part of asArray(content)) {
    const record = asRecord(part);
    if (typeof record?.text === 'string') texts.push(record.text);
  }
  return texts.join(' ');
}

export function responsesConversation(body: JsonObject): Conversation {
  const texts: string[] = [];
  let last: Conversation['last'];
  if (typeof body.instructions === 'string' && body.instructions !== '') texts.push(body.instructions);
  const items =
    typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : asArray(body.input);
  for (const value of items) {
    const item = asRecord(value) ?? {};
    if (item.type === 'function_call_output') {
      const text = itemText(item.output);
      texts.push(text);
      last = { kind: 'tool_result', text };
    } else if (typeof item.role === 'string') {
      const text = itemText(item.content);
      if (text !== '') texts.push(text);
      if (item.role === 'user') last = { kind: 'text', text };
    }
  }
  const tools: string[] = [];
  for (const tool of asArray(body.tools)) {
    const name = asString(asRecord(tool)?.name);
    if (asRecord(tool)?.type === 'function' && name !== undefined) tools.push(name);
  }
  return { texts, last, tools };
}

function responsesUsage(result: Answer): JsonObject {
  return {
    input_tokens: result.inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: result.outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: result.inputTokens + result.outputTokens,
  };
}

interface Shell {
  id: string;
  createdAt: number;
  model: string;
  body: JsonObject;
}

function responseObject(
  shell: Shell,
  status: string,
  output: unknown[],
  usage: JsonObject | null,
): JsonObject {
  const { body } = shell;
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
    reasoning: { effort: null, summary: null },
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

/** The finished output item, and the id its stream events refer to. */
function outputItem(result: Answer): JsonObject {
  if (result.kind === 'text') {
    const content = [outputText(result.text)];
    return { id: fakeId('msg_'), type: 'message', status: 'completed', content, role: 'assistant' };
  }
  const call = { arguments: result.arguments, call_id: fakeId('call_'), name: result.name };
  return { id: fakeId('fc_'), type: 'function_call', status: 'completed', ...call };
}

/** The events between output_item.added and output_item.done, for the one output item. */
function itemEvents(result: Answer, item: JsonObject): Array<[string, JsonObject]> {
  const at = { item_id: item.id, output_index: 0 };
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

function streamFrames(shell: Shell, result: Answer): string[] {
  const item = outputItem(result);
  const pending = result.kind === 'text' ? { content: [] } : { arguments: '' };
  const started = { ...item, status: 'in_progress', ...pending };
  const inProgress = responseObject(shell, 'in_progress', [], null);
  const events: Array<[string, JsonObject]> = [
    ['response.created', { response: inProgress }],
    ['response.in_progress', { response: inProgress }],
    ['response.output_item.added', { output_index: 0, item: started }],
    ...itemEvents(result, item),
    ['response.output_item.done', { output_index: 0, item }],
    ['response.completed', { response: responseObject(shell, 'completed', [item], responsesUsage(result)) }],
  ];
  return events.map(([type, data], n) => sseFrame({ type, ...data, sequence_number: n }, type));
}

function validate(body: JsonObject): string | undefined {
  if (typeof body.model !== 'string') return "Missing required parameter: 'model'.";
  if (body.input === undefined && body.previous_response_id === undefined) {
    return "Missing required parameter: 'input'.";
  }
  return undefined;
}

/** One Responses API call, after routing and authentication. */
export async function answerResponses(ctx: FakeContext): Promise<void> {
  const body = isRecord(ctx.body) ? ctx.body : undefined;
  const invalid = body ? validate(body) : 'We could not parse the JSON body of your request.';
  if (!body || invalid !== undefined) return sendError(ctx, openAiError(400, 'invalid', invalid ?? ''));
  const model = String(body.model);
  const scenario = await runScenario(ctx, model, openAiError);
  if (!scenario) return;
  const result = answer(responsesConversation(body));
  const shell: Shell = { id: fakeId('resp_'), createdAt: Math.floor(Date.now() / 1000), model, body };
  if (body.stream !== true) {
    const output = [outputItem(result)];
    return sendAnswer(ctx, responseObject(shell, 'completed', output, responsesUsage(result)), scenario);
  }
  await writeStream(ctx, SSE_HEADERS, streamFrames(shell, result), {
    cut: scenario.cut,
    stall: scenario.stall,
    model,
  });
}
