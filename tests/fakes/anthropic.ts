/**
 * Anthropic Messages (`POST /v1/messages`, `x-api-key` + `anthropic-version`): `message`
 * objects, the named-event stream (message_start … message_stop, with a ping), and
 * `{type: "error", error: {type, message}}` errors.
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

function blocksText(content: unknown, type: string): string {
  if (typeof content === 'string') return content;
  const texts: string[] = [];
  for (const block of asArray(content)) {
    const record = asRecord(block);
    if (record?.type === type && typeof record.text === 'string') texts.push(record.text);
  }
  return texts.join(' ');
}

export function anthropicConversation(body: JsonObject): Conversation {
  const texts: string[] = [];
  let last: Conversation['last'];
  const system = blocksText(body.system, 'text');
  if (system !== '') texts.push(system);
  for (const value of asArray(body.messages)) {
    const message = asRecord(value) ?? {};
    const text = blocksText(message.content, 'text');
    if (text !== '') texts.push(text);
    const results = asArray(message.content).filter((block) => asRecord(block)?.type === 'tool_result');
    const resultText = results.map((block) => blocksText(asRecord(block)?.content, 'text')).join(' ');
    if (resultText !== '') texts.push(resultText);
    if (message.role !== 'user') continue;
    last = results.length > 0 ? { kind: 'tool_result', text: resultText } : { kind: 'text', text };
  }
  const tools = asArray(body.tools).flatMap((tool) => asString(asRecord(tool)?.name) ?? []);
  return { texts, last, tools };
}

/** Tool results must answer a tool_use of the message right before theirs. */
function unansweredResult(messages: unknown[]): string | undefined {
  let offered = new Set<unknown>();
  for (const [i, value] of messages.entries()) {
    const blocks = asArray(asRecord(value)?.content).map((block) => asRecord(block) ?? {});
    for (const block of blocks) {
      if (block.type === 'tool_result' && !offered.has(block.tool_use_id)) {
        return `messages.${i}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(block.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
      }
      if (block.type === 'text' && block.text === '')
        return 'messages: text content blocks must be non-empty';
    }
    offered = new Set(blocks.filter((block) => block.type === 'tool_use').map((block) => block.id));
  }
  return undefined;
}

function validate(body: JsonObject): string | undefined {
  if (typeof body.model !== 'string') return 'model: Field required';
  if (typeof body.max_tokens !== 'number') return 'max_tokens: Field required';
  const messages = asArray(body.messages);
  if (messages.length === 0) return 'messages: Field required';
  if (asRecord(messages[0])?.role !== 'user') return 'messages: first message must use the "user" role';
  return unansweredResult(messages);
}

function usage(result: Answer, outputTokens: number): JsonObject {
  return {
    input_tokens: result.inputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: outputTokens,
    service_tier: 'standard',
  };
}

const stopReason = (result: Answer): string => (result.kind === 'tool' ? 'tool_use' : 'end_turn');

function message(model: string, result: Answer): JsonObject {
  const content =
    result.kind === 'text'
      ? [{ type: 'text', text: result.text }]
      : [{ type: 'tool_use', id: fakeId('toolu_'), name: result.name, input: JSON.parse(result.arguments) }];
  return {
    id: fakeId('msg_'),
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stopReason(result),
    stop_sequence: null,
    usage: usage(result, result.outputTokens),
  };
}

function blockEvents(result: Answer): Array<[string, JsonObject]> {
  if (result.kind === 'text') {
    const deltas = wordDeltas(result.text).map((text): [string, JsonObject] => [
      'content_block_delta',
      { index: 0, delta: { type: 'text_delta', text } },
    ]);
    return [
      ['content_block_start', { index: 0, content_block: { type: 'text', text: '' } }],
      ['ping', {}],
      ...deltas,
    ];
  }
  const block = { type: 'tool_use', id: fakeId('toolu_'), name: result.name, input: {} };
  const deltas = ['', ...argumentFragments(result.arguments)].map((partial): [string, JsonObject] => [
    'content_block_delta',
    { index: 0, delta: { type: 'input_json_delta', partial_json: partial } },
  ]);
  return [['content_block_start', { index: 0, content_block: block }], ['ping', {}], ...deltas];
}

function streamFrames(model: string, result: Answer): string[] {
  const start = { ...message(model, result), content: [], stop_reason: null, usage: usage(result, 1) };
  const events: Array<[string, JsonObject]> = [
    ['message_start', { message: start }],
    ...blockEvents(result),
    ['content_block_stop', { index: 0 }],
    [
      'message_delta',
      {
        delta: { stop_reason: stopReason(result), stop_sequence: null },
        usage: { output_tokens: result.outputTokens },
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
 * POST `/v1/messages/count_tokens`: `{input_tokens}` for a Messages body without `max_tokens`,
 * counted as the fake counts a conversation (so it equals a later message's input_tokens).
 */
async function countTokens(ctx: FakeContext): Promise<void> {
  const body = isRecord(ctx.body) ? ctx.body : undefined;
  const invalid = body ? validate({ max_tokens: 1, ...body }) : 'invalid JSON';
  if (!body || invalid !== undefined) return sendError(ctx, anthropicError(400, 'invalid', invalid ?? ''));
  const scenario = await runScenario(ctx, String(body.model), anthropicError);
  if (!scenario) return;
  const result = answer(anthropicConversation(body));
  return sendAnswer(ctx, { input_tokens: result.inputTokens }, scenario, { 'request-id': fakeId('req_') });
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
  const invalid = body ? validate(body) : 'There was an issue with your request body: invalid JSON';
  if (!body || invalid !== undefined) return sendError(ctx, anthropicError(400, 'invalid', invalid ?? ''));
  const model = String(body.model);
  const scenario = await runScenario(ctx, model, anthropicError);
  if (!scenario) return;
  const result = answer(anthropicConversation(body));
  const headers = { 'request-id': fakeId('req_') };
  if (body.stream !== true) return sendAnswer(ctx, message(model, result), scenario, headers);
  await writeStream(ctx, { ...SSE_HEADERS, ...headers }, streamFrames(model, result), {
    cut: scenario.cut,
    stall: scenario.stall,
    model,
  });
}
