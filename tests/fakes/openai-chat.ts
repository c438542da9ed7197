/**
 * OpenAI Chat Completions as OpenAI, custom OpenAI-compatible servers and Azure OpenAI
 * speak it: `chat.completion` objects, `chat.completion.chunk` SSE ending `data: [DONE]`,
 * and a usage chunk (empty `choices`) only when `stream_options.include_usage` is set.
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
  type ErrorKind,
  type FakeContext,
  runScenario,
  SSE_HEADERS,
  sendAnswer,
  sendError,
  sseFrame,
  type VendorError,
  writeStream,
} from './context';

export type ChatFlavor = 'openai' | 'azure';

const OPENAI_ERRORS: Readonly<Record<ErrorKind, [type: string, code: string | null]>> = {
  auth: ['invalid_request_error', 'invalid_api_key'],
  invalid: ['invalid_request_error', null],
  rate_limit: ['requests', 'rate_limit_exceeded'],
  unavailable: ['server_error', null],
  not_found: ['invalid_request_error', 'model_not_found'],
  server: ['server_error', null],
};

/** `{error: {message, type, param, code}}`, as api.openai.com answers. */
export function openAiError(status: number, kind: ErrorKind, message: string): VendorError {
  const [type, code] = OPENAI_ERRORS[kind];
  return {
    status,
    body: { error: { message, type, param: null, code } },
    headers: { 'x-request-id': fakeId('req_') },
  };
}

/** Azure names most failures by `code` (often the bare HTTP status) and leaves out `type`. */
export function azureError(status: number, kind: ErrorKind, message: string): VendorError {
  if (kind === 'invalid') return openAiError(status, kind, message);
  const codes: Record<ErrorKind, string> = {
    auth: '401',
    invalid: 'BadRequest',
    rate_limit: '429',
    unavailable: 'ServiceUnavailable',
    not_found: 'DeploymentNotFound',
    server: 'InternalServerError',
  };
  return {
    status,
    body: { error: { code: codes[kind], message } },
    headers: { 'apim-request-id': fakeId('') },
  };
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  const texts: string[] = [];
  for (const part of asArray(content)) {
    const record = asRecord(part);
    if (record?.type === 'text' && typeof record.text === 'string') texts.push(record.text);
  }
  return texts.join(' ');
}

export function chatConversation(body: JsonObject): Conversation {
  const texts: string[] = [];
  let last: Conversation['last'];
  for (const value of asArray(body.messages)) {
    const message = asRecord(value) ?? {};
    const text = contentText(message.content);
    if (text !== '') texts.push(text);
    if (message.role === 'user') last = { kind: 'text', text };
    else if (message.role === 'tool') last = { kind: 'tool_result', text };
  }
  const tools: string[] = [];
  for (const tool of asArray(body.tools)) {
    const name = asString(asRecord(asRecord(tool)?.function)?.name);
    if (name !== undefined) tools.push(name);
  }
  return { texts, last, tools };
}

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);

/** The checks OpenAI makes that an adapter could plausibly trip over. */
export function validateChat(body: JsonObject, needsModel: boolean): string | undefined {
  if (needsModel && typeof body.model !== 'string') return 'you must provide a model parameter';
  const messages = asArray(body.messages);
  if (messages.length === 0) return "[] is too short - 'messages'";
  if (body.stream_options !== undefined && body.stream !== true) {
    return "The 'stream_options' parameter is only allowed when 'stream' is enabled.";
  }
  let previous: JsonObject | undefined;
  for (const [i, value] of messages.entries()) {
    const message = asRecord(value) ?? {};
    if (!ROLES.has(String(message.role)))
      return `Invalid value: '${String(message.role)}' at messages[${i}].role`;
    const answersCall =
      previous?.role === 'tool' ||
      (previous?.role === 'assistant' && asArray(previous.tool_calls).length > 0);
    if (message.role === 'tool' && !answersCall) {
      return "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.";
    }
    previous = message;
  }
  return undefined;
}

function chatUsage(result: Answer): JsonObject {
  return {
    prompt_tokens: result.inputTokens,
    completion_tokens: result.outputTokens,
    total_tokens: result.inputTokens + result.outputTokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

const NO_FILTER = { filtered: false, severity: 'safe' };
const AZURE_FILTERS = { hate: NO_FILTER, self_harm: NO_FILTER, sexual: NO_FILTER, violence: NO_FILTER };

function chatMessage(result: Answer, callId: string): JsonObject {
  if (result.kind === 'text')
    return { role: 'assistant', content: result.text, refusal: null, annotations: [] };
  const call = { id: callId, type: 'function', function: { name: result.name, arguments: result.arguments } };
  return { role: 'assistant', content: null, tool_calls: [call], refusal: null, annotations: [] };
}

const finishReason = (result: Answer): string => (result.kind === 'tool' ? 'tool_calls' : 'stop');

export function chatCompletion(flavor: ChatFlavor, model: string, result: Answer): JsonObject {
  const choice: JsonObject = {
    index: 0,
    message: chatMessage(result, fakeId('call_')),
    logprobs: null,
    finish_reason: finishReason(result),
  };
  const out: JsonObject = {
    id: fakeId('chatcmpl-'),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [choice],
    usage: chatUsage(result),
    system_fingerprint: 'fp_fake',
  };
  if (flavor === 'openai') out.service_tier = 'default';
  else {
    choice.content_filter_results = AZURE_FILTERS;
    out.prompt_filter_results = [{ prompt_index: 0, content_filter_results: AZURE_FILTERS }];
  }
  return out;
}

/** The deltas of choice 0, in order, ending with the finishing (empty) delta. */
function chatDeltas(result: Answer): Array<[delta: JsonObject, finish: string | null]> {
  if (result.kind === 'text') {
    const words = wordDeltas(result.text).map((text): [JsonObject, null] => [{ content: text }, null]);
    return [[{ role: 'assistant', content: '', refusal: null }, null], ...words, [{}, 'stop']];
  }
  const call = {
    index: 0,
    id: fakeId('call_'),
    type: 'function',
    function: { name: result.name, arguments: '' },
  };
  const head: [JsonObject, null] = [
    { role: 'assistant', content: null, tool_calls: [call], refusal: null },
    null,
  ];
  const args = argumentFragments(result.arguments).map((fragment): [JsonObject, null] => [
    { tool_calls: [{ index: 0, function: { arguments: fragment } }] },
    null,
  ]);
  return [head, ...args, [{}, 'tool_calls']];
}

export function chatChunks(
  flavor: ChatFlavor,
  model: string,
  result: Answer,
  includeUsage: boolean,
): string[] {
  const base = {
    id: fakeId('chatcmpl-'),
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
  };
  const frames: string[] = [];
  if (flavor === 'azure') {
    const filters = [{ prompt_index: 0, content_filter_results: AZURE_FILTERS }];
    frames.push(
      sseFrame({ choices: [], created: 0, id: '', model: '', object: '', prompt_filter_results: filters }),
    );
  }
  for (const [delta, finish] of chatDeltas(result)) {
    const choice: JsonObject = { index: 0, delta, logprobs: null, finish_reason: finish };
    if (flavor === 'azure') choice.content_filter_results = finish === null ? AZURE_FILTERS : {};
    const chunk: JsonObject = { ...base, model, system_fingerprint: 'fp_fake', choices: [choice] };
    if (includeUsage) chunk.usage = null;
    frames.push(sseFrame(chunk));
  }
  if (includeUsage) {
    frames.push(
      sseFrame({ ...base, model, system_fingerprint: 'fp_fake', choices: [], usage: chatUsage(result) }),
    );
  }
  frames.push(sseFrame('[DONE]'));
  return frames;
}

/** One chat completions call, after routing and authentication. */
export async function answerChat(ctx: FakeContext, flavor: ChatFlavor, model: string): Promise<void> {
  const renderError = flavor === 'azure' ? azureError : openAiError;
  const body = isRecord(ctx.body) ? ctx.body : undefined;
  const invalid = body
    ? validateChat(body, flavor === 'openai')
    : 'We could not parse the JSON body of your request.';
  if (!body || invalid !== undefined) return sendError(ctx, renderError(400, 'invalid', invalid ?? ''));
  const scenario = await runScenario(ctx, model, renderError);
  if (!scenario) return;
  const result = answer(chatConversation(body));
  const requestId = { 'x-request-id': fakeId('req_') };
  if (body.stream !== true)
    return sendAnswer(ctx, chatCompletion(flavor, model, result), scenario, requestId);
  const includeUsage = asRecord(body.stream_options)?.include_usage === true;
  const frames = chatChunks(flavor, model, result, includeUsage);
  await writeStream(ctx, { ...SSE_HEADERS, ...requestId }, frames, {
    cut: scenario.cut,
    stall: scenario.stall,
    model,
  });
}
