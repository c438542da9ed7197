/**
 * Anthropic Messages (`POST /v1/messages`, `x-api-key` + `anthropic-version`): `message`
 * objects, the named-event stream (message_start … message_stop, with a ping), and
 * `{type: "error", error: {type, message}}` errors. It refuses what the real API refuses
 * (anthropic-request.ts), thinks when asked and checks the thinking sent back
 * (anthropic-thinking.ts), and reports prompt-cache reads and writes (anthropic-cache.ts).
 */
import { anthropicCacheUsage, anthropicUsage } from './anthropic-cache';
import { betasOf, countTokensProblem, messagesProblem } from './anthropic-request';
import {
  thinkingBlock,
  thinkingSetting,
  thinkingSettingsProblem,
  toolLoopWithoutThinking,
  verifyThinkingBlocks,
} from './anthropic-thinking';
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
import {
  type ErrorKind,
  type FakeContext,
  observedAnswer,
  runScenario,
  SSE_HEADERS,
  sendAnswer,
  sendError,
  sseFrame,
  type VendorError,
  writeStream,
} from './context';
import type { CacheUsage } from './prompt-cache';

const ERROR_TYPES: Readonly<Record<ErrorKind, string>> = {
  auth: 'authentication_error',
  invalid: 'invalid_request_error',
  rate_limit: 'rate_limit_error',
  unavailable: 'overloaded_error',
  not_found: 'not_found_error',
  server: 'api_error',
};

export function anthropicError(status: number, kind: ErrorKind, message: string): VendorError {
  const requestId = fakeId('req_');
  return {
    status,
    body: { type: 'error', error: { type: ERROR_TYPES[kind], message }, request_id: requestId },
    headers: { 'request-id': requestId },
  };
}

export function anthropicConversation(body: JsonObject): Conversation {
  const texts: string[] = [];
  let last: Conversation['last'];
  const system = contentText(body.system);
  if (system !== '') texts.push(system);
  for (const value of asArray(body.messages)) {
    const message = asRecord(value) ?? {};
    const text = contentText(message.content);
    if (text !== '') texts.push(text);
    const results = asArray(message.content).filter((block) => asRecord(block)?.type === 'tool_result');
    const resultText = results.map((block) => contentText(asRecord(block)?.content)).join(' ');
    if (resultText !== '') texts.push(resultText);
    if (message.role !== 'user') continue;
    last = results.length > 0 ? { kind: 'tool_result', text: resultText } : { kind: 'text', text };
  }
  const tools: string[] = [];
  const toolParams: Record<string, string[]> = {};
  for (const value of asArray(body.tools)) {
    const tool = asRecord(value) ?? {};
    const name = asString(tool.name);
    if (name === undefined) continue;
    tools.push(name);
    const properties = asRecord(asRecord(tool.input_schema)?.properties);
    if (properties) toolParams[name] = Object.keys(properties);
  }
  return { texts, last, tools, toolParams };
}

/** One answer: the model's reply, its thinking (thinking on), and the prompt cache's say. */
interface Reply {
  model: string;
  result: Answer;
  toolUseId: string;
  thinking?: { block: JsonObject; thought: string };
  cache: CacheUsage;
  /** `thinking-token-count-2026-05-13`: usage says how many output tokens were thinking. */
  countThinking: boolean;
}

const THINKING_TOKEN_COUNT_BETA = 'thinking-token-count-2026-05-13';

const thinkingTokens = (reply: Reply): number => (reply.thinking ? countWords([reply.thinking.thought]) : 0);

/** The usage at the end of the answer, or (`started`) as message_start gives it: one token out. */
function usage(reply: Reply, started = false): JsonObject {
  const output = started ? 1 : reply.result.outputTokens + thinkingTokens(reply);
  const out = anthropicUsage(reply.result.inputTokens, reply.cache, output);
  if (reply.countThinking)
    out.output_tokens_details = { thinking_tokens: started ? 0 : thinkingTokens(reply) };
  return out;
}

const stopReason = (result: Answer): string => (result.kind === 'tool' ? 'tool_use' : 'end_turn');

function answerBlock(reply: Reply): JsonObject {
  const { result } = reply;
  if (result.kind === 'text') return { type: 'text', text: result.text };
  return { type: 'tool_use', id: reply.toolUseId, name: result.name, input: JSON.parse(result.arguments) };
}

function message(reply: Reply): JsonObject {
  const content = [...(reply.thinking ? [reply.thinking.block] : []), answerBlock(reply)];
  return {
    id: fakeId('msg_'),
    type: 'message',
    role: 'assistant',
    model: reply.model,
    content,
    stop_reason: stopReason(reply.result),
    stop_sequence: null,
    usage: usage(reply),
  };
}

/** A thinking block streams its text word by word (none when omitted), then its signature. */
function thinkingEvents(block: JsonObject): Array<[string, JsonObject]> {
  const text = String(block.thinking);
  const deltas = text === '' ? [] : wordDeltas(text);
  return [
    ['content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }],
    ...deltas.map((thinking): [string, JsonObject] => [
      'content_block_delta',
      { index: 0, delta: { type: 'thinking_delta', thinking } },
    ]),
    ['content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: block.signature } }],
    ['content_block_stop', { index: 0 }],
  ];
}

function answerEvents(reply: Reply, index: number): Array<[string, JsonObject]> {
  const { result } = reply;
  if (result.kind === 'text') {
    const deltas = wordDeltas(result.text).map((text): [string, JsonObject] => [
      'content_block_delta',
      { index, delta: { type: 'text_delta', text } },
    ]);
    return [
      ['content_block_start', { index, content_block: { type: 'text', text: '' } }],
      ['ping', {}],
      ...deltas,
      ['content_block_stop', { index }],
    ];
  }
  const block = { type: 'tool_use', id: reply.toolUseId, name: result.name, input: {} };
  const deltas = ['', ...argumentFragments(result.arguments)].map((partial): [string, JsonObject] => [
    'content_block_delta',
    { index, delta: { type: 'input_json_delta', partial_json: partial } },
  ]);
  return [
    ['content_block_start', { index, content_block: block }],
    ['ping', {}],
    ...deltas,
    ['content_block_stop', { index }],
  ];
}

function streamFrames(reply: Reply): string[] {
  const start = { ...message(reply), content: [], stop_reason: null, usage: usage(reply, true) };
  const events: Array<[string, JsonObject]> = [
    ['message_start', { message: start }],
    ...(reply.thinking ? thinkingEvents(reply.thinking.block) : []),
    ...answerEvents(reply, reply.thinking ? 1 : 0),
    [
      'message_delta',
      {
        delta: { stop_reason: stopReason(reply.result), stop_sequence: null },
        usage: usage(reply),
      },
    ],
    ['message_stop', {}],
  ];
  return events.map(([type, data]) => sseFrame({ type, ...data }, type));
}

function headerFailure(ctx: FakeContext): VendorError | undefined {
  const key = ctx.headers['x-api-key'];
  if (key === undefined) return anthropicError(401, 'auth', 'x-api-key header is required');
  if (key !== ctx.apiKey) return anthropicError(401, 'auth', 'invalid x-api-key');
  if (!ctx.headers['anthropic-version']) {
    return anthropicError(400, 'invalid', 'anthropic-version: header is required');
  }
  return undefined;
}

/**
 * POST `/v1/messages/count_tokens`: `{input_tokens}` for a Messages body without the generation
 * fields, counted as the fake counts a conversation (so it equals a later message's input).
 */
async function countTokens(ctx: FakeContext): Promise<void> {
  const body = isRecord(ctx.body) ? ctx.body : undefined;
  const invalid = body ? countTokensProblem(body, betasOf(ctx.headers)) : 'invalid JSON';
  if (!body || invalid !== undefined) return sendError(ctx, anthropicError(400, 'invalid', invalid ?? ''));
  const scenario = await runScenario(ctx, String(body.model), anthropicError);
  if (!scenario) return;
  const result = answerFor(anthropicConversation(body), String(body.model));
  return sendAnswer(ctx, { input_tokens: result.inputTokens }, scenario, { 'request-id': fakeId('req_') });
}

/** Every 400 the Messages API gives this body, the first one found; counts the thinking verified. */
function requestProblem(ctx: FakeContext, body: JsonObject): string | undefined {
  const betas = betasOf(ctx.headers);
  const problem = messagesProblem(body, betas) ?? thinkingSettingsProblem(body, betas);
  if (problem !== undefined) return problem;
  const messages = asArray(body.messages);
  const checked = verifyThinkingBlocks(ctx.memory, messages);
  ctx.observed.verifiedReasoning = checked.verified;
  if (checked.error !== undefined) return checked.error;
  return thinkingSetting(body) ? toolLoopWithoutThinking(messages) : undefined;
}

function reply(ctx: FakeContext, body: JsonObject): Reply {
  const model = String(body.model);
  const conversation = anthropicConversation(body);
  const result = answerFor(conversation, model);
  const out: Reply = {
    model,
    result,
    toolUseId: fakeId('toolu_'),
    cache: anthropicCacheUsage(ctx.memory, body, model),
    countThinking: betasOf(ctx.headers).has(THINKING_TOKEN_COUNT_BETA),
  };
  const setting = thinkingSetting(body);
  if (setting) {
    const thought = thoughtFor(conversation, result);
    out.thinking = { block: thinkingBlock(ctx.memory, thought, setting), thought };
    ctx.observed.reasoning = thought;
  }
  ctx.observed.answer = observedAnswer(result);
  ctx.observed.usage = {
    input: Math.max(result.inputTokens, out.cache.read + out.cache.write5m + out.cache.write1h),
    output: result.outputTokens + thinkingTokens(out),
    cacheRead: out.cache.read,
    cacheWrite: out.cache.write5m + out.cache.write1h,
    // Only what the usage says: thinking tokens are counted apart under the beta alone.
    reasoning: out.countThinking ? thinkingTokens(out) : 0,
  };
  return out;
}

/** `anthropic`: POST `/anthropic/v1/messages` and `/anthropic/v1/messages/count_tokens`. */
export async function handleAnthropic(ctx: FakeContext): Promise<void> {
  if (ctx.rawPath === '/anthropic/v1/messages/count_tokens' && ctx.req.method === 'POST') {
    const failure = headerFailure(ctx);
    return failure ? sendError(ctx, failure) : countTokens(ctx);
  }
  if (ctx.rawPath !== '/anthropic/v1/messages' || ctx.req.method !== 'POST') {
    return sendError(ctx, anthropicError(404, 'not_found', `${ctx.req.method} ${ctx.rawPath} not found`));
  }
  const failure = headerFailure(ctx);
  if (failure) return sendError(ctx, failure);
  const body = isRecord(ctx.body) ? ctx.body : undefined;
  const invalid = body
    ? requestProblem(ctx, body)
    : 'There was an issue with your request body: invalid JSON';
  if (!body || invalid !== undefined) return sendError(ctx, anthropicError(400, 'invalid', invalid ?? ''));
  const model = String(body.model);
  const scenario = await runScenario(ctx, model, anthropicError);
  if (!scenario) return;
  const answered = reply(ctx, body);
  const headers = { 'request-id': fakeId('req_') };
  if (body.stream !== true) return sendAnswer(ctx, message(answered), scenario, headers);
  await writeStream(ctx, { ...SSE_HEADERS, ...headers }, streamFrames(answered), {
    ...scenario,
    model,
    // What api.anthropic.com sends when it is overloaded part way through an answer.
    errorFrame: sseFrame(
      { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
      'error',
    ),
  });
}
