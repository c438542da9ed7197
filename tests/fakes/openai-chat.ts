/**
 * OpenAI Chat Completions as OpenAI, custom OpenAI-compatible servers and Azure OpenAI
 * speak it: `chat.completion` objects, `chat.completion.chunk` SSE ending `data: [DONE]`,
 * and a usage chunk (empty `choices`) only when `stream_options.include_usage` is set.
 * OpenAI and Azure refuse parameters they do not know and tool messages that answer no call
 * (chat-checks.ts); `reasoning_effort` makes the model reason (reasoning tokens in the usage),
 * and a custom server streams that reasoning as `reasoning_content`, as vLLM and DeepSeek do.
 * Repeated prompt prefixes are reported as cached tokens (prompt-cache.ts).
 */
import {
  type Answer,
  answerFor,
  argumentFragments,
  asArray,
  asRecord,
  asString,
  type Conversation,
  contentText,
  countWords,
  fakeId,
  isRecord,
  type JsonObject,
  thoughtFor,
  wordDeltas,
} from './behaviour';
import { chatProblem } from './chat-checks';
import {
  type ErrorKind,
  type FakeContext,
  observedAnswer,
  openAiObservedUsage,
  runScenario,
  SSE_HEADERS,
  sendAnswer,
  sendError,
  sseFrame,
  type VendorError,
  writeStream,
} from './context';
import { automaticCacheRead, type CacheSegment } from './prompt-cache';

export type ChatFlavor = 'openai' | 'azure';

const OPENAI_ERRORS: Readonly<Record<ErrorKind, [type: string, code: string | null]>> = {
  auth: ['invalid_request_error', 'invalid_api_key'],
  invalid: ['invalid_request_error', null],
  rate_limit: ['requests', 'rate_limit_exceeded'],
  unavailable: ['server_error', null],
  not_found: ['invalid_request_error', 'model_not_found'],
  server: ['server_error', null],
};

/**
 * `{error: {message, type, param, code}}`, as api.openai.com answers; `detail` names the
 * parameter at fault and a code of its own where OpenAI gives them.
 */
export function openAiError(
  status: number,
  kind: ErrorKind,
  message: string,
  detail: { param?: string | null; code?: string | null } = {},
): VendorError {
  const [type, code] = OPENAI_ERRORS[kind];
  return {
    status,
    body: { error: { message, type, param: null, code, ...detail } },
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
  const toolParams: Record<string, string[]> = {};
  for (const tool of asArray(body.tools)) {
    const fn = asRecord(asRecord(tool)?.function);
    const name = asString(fn?.name);
    if (name === undefined) continue;
    tools.push(name);
    const properties = asRecord(asRecord(fn?.parameters)?.properties);
    if (properties) toolParams[name] = Object.keys(properties);
  }
  return { texts, last, tools, toolParams };
}

/** The prompt in cache order: tools, then the messages. */
function cacheSegments(body: JsonObject): CacheSegment[] {
  const segments: CacheSegment[] = [{ content: ['tools', body.tools ?? null], words: 0 }];
  for (const message of asArray(body.messages)) {
    segments.push({ content: message, words: countWords([contentText(asRecord(message)?.content)]) });
  }
  return segments;
}

/** One answer: the reply, the reasoning behind it (reasoning_effort), cached prompt tokens. */
export interface ChatReply {
  result: Answer;
  thought?: string;
  cachedTokens: number;
  /** Show the reasoning as `reasoning_content` (custom OpenAI-compatible servers). */
  showReasoning: boolean;
}

const reasoningTokens = (reply: ChatReply): number => (reply.thought ? countWords([reply.thought]) : 0);

function chatUsage(reply: ChatReply): JsonObject {
  const { result } = reply;
  const completion = result.outputTokens + reasoningTokens(reply);
  return {
    prompt_tokens: result.inputTokens,
    completion_tokens: completion,
    total_tokens: result.inputTokens + completion,
    prompt_tokens_details: { cached_tokens: reply.cachedTokens, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: reasoningTokens(reply),
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

const NO_FILTER = { filtered: false, severity: 'safe' };
const AZURE_FILTERS = { hate: NO_FILTER, self_harm: NO_FILTER, sexual: NO_FILTER, violence: NO_FILTER };

function chatMessage(reply: ChatReply, callId: string): JsonObject {
  const { result } = reply;
  const reasoning = reply.showReasoning && reply.thought ? { reasoning_content: reply.thought } : {};
  if (result.kind === 'text')
    return { role: 'assistant', content: result.text, ...reasoning, refusal: null, annotations: [] };
  const call = { id: callId, type: 'function', function: { name: result.name, arguments: result.arguments } };
  return {
    role: 'assistant',
    content: null,
    ...reasoning,
    tool_calls: [call],
    refusal: null,
    annotations: [],
  };
}

const finishReason = (result: Answer): string => (result.kind === 'tool' ? 'tool_calls' : 'stop');

export function chatCompletion(flavor: ChatFlavor, model: string, reply: ChatReply): JsonObject {
  const choice: JsonObject = {
    index: 0,
    message: chatMessage(reply, fakeId('call_')),
    logprobs: null,
    finish_reason: finishReason(reply.result),
  };
  const out: JsonObject = {
    id: fakeId('chatcmpl-'),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [choice],
    usage: chatUsage(reply),
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
function chatDeltas(reply: ChatReply): Array<[delta: JsonObject, finish: string | null]> {
  const { result } = reply;
  const thinking =
    reply.showReasoning && reply.thought
      ? wordDeltas(reply.thought).map((text): [JsonObject, null] => [{ reasoning_content: text }, null])
      : [];
  if (result.kind === 'text') {
    const words = wordDeltas(result.text).map((text): [JsonObject, null] => [{ content: text }, null]);
    return [[{ role: 'assistant', content: '', refusal: null }, null], ...thinking, ...words, [{}, 'stop']];
  }
  const call = {
    index: 0,
    id: fakeId('call_'),
    type: 'function',
    function: { name: result.name, arguments: '' },
  };
  const opening: [JsonObject, null] = [{ role: 'assistant', content: null, refusal: null }, null];
  const head: [JsonObject, null] = [{ tool_calls: [call] }, null];
  const args = argumentFragments(result.arguments).map((fragment): [JsonObject, null] => [
    { tool_calls: [{ index: 0, function: { arguments: fragment } }] },
    null,
  ]);
  if (thinking.length === 0) {
    return [[{ ...opening[0], tool_calls: [call] }, null], ...args, [{}, 'tool_calls']];
  }
  return [opening, ...thinking, head, ...args, [{}, 'tool_calls']];
}

export function chatChunks(
  flavor: ChatFlavor,
  model: string,
  reply: ChatReply,
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
  for (const [delta, finish] of chatDeltas(reply)) {
    const choice: JsonObject = { index: 0, delta, logprobs: null, finish_reason: finish };
    if (flavor === 'azure') choice.content_filter_results = finish === null ? AZURE_FILTERS : {};
    const chunk: JsonObject = { ...base, model, system_fingerprint: 'fp_fake', choices: [choice] };
    if (includeUsage) chunk.usage = null;
    frames.push(sseFrame(chunk));
  }
  if (includeUsage) {
    frames.push(
      sseFrame({ ...base, model, system_fingerprint: 'fp_fake', choices: [], usage: chatUsage(reply) }),
    );
  }
  frames.push(sseFrame('[DONE]'));
  return frames;
}

/** One chat completions call, after routing and authentication. */
export async function answerChat(ctx: FakeContext, flavor: ChatFlavor, model: string): Promise<void> {
  const renderError = flavor === 'azure' ? azureError : openAiError;
  const body = isRecord(ctx.body) ? ctx.body : undefined;
  const strict = ctx.vendor !== 'custom';
  const invalid = body
    ? chatProblem(body, { needsModel: flavor === 'openai', strict })
    : 'We could not parse the JSON body of your request.';
  if (!body || invalid !== undefined) return sendError(ctx, renderError(400, 'invalid', invalid ?? ''));
  const scenario = await runScenario(ctx, model, renderError);
  if (!scenario) return;
  const conversation = chatConversation(body);
  const result = answerFor(conversation, model);
  const scope = `chat\n${model}\n${asString(body.prompt_cache_key) ?? ''}`;
  const reply: ChatReply = {
    result,
    cachedTokens: automaticCacheRead(ctx.memory, scope, cacheSegments(body)),
    showReasoning: ctx.vendor === 'custom',
  };
  const effort = body.reasoning_effort;
  if (typeof effort === 'string' && effort !== 'none') {
    reply.thought = thoughtFor(conversation, result);
    ctx.observed.reasoning = reply.thought;
  }
  ctx.observed.answer = observedAnswer(result);
  ctx.observed.usage = openAiObservedUsage(result, reply.cachedTokens, reasoningTokens(reply));
  const requestId = { 'x-request-id': fakeId('req_') };
  if (body.stream !== true) return sendAnswer(ctx, chatCompletion(flavor, model, reply), scenario, requestId);
  const includeUsage = asRecord(body.stream_options)?.include_usage === true && !scenario.noUsage;
  const frames = chatChunks(flavor, model, reply, includeUsage);
  await writeStream(ctx, { ...SSE_HEADERS, ...requestId }, frames, {
    ...scenario,
    model,
    // A chunk carrying `error`, as OpenAI sends when a stream fails part way.
    errorFrame: sseFrame({
      error: {
        message: 'The server had an error processing your request.',
        type: 'server_error',
        param: null,
        code: null,
      },
    }),
  });
}
