/**
 * The OpenAI Responses API (`POST /v1/responses`): `response` objects with reasoning, message
 * and function_call output items, and the named-event stream (response.created …
 * response.completed, reasoning summaries included; openai-responses-stream.ts). Asked for
 * reasoning (`reasoning.effort`), it answers with a reasoning item first: a summary when
 * `reasoning.summary` is set, and its encrypted content when `include` asks for it, which it
 * verifies when the item comes back (openai-responses-checks.ts).
 * Repeated prompt prefixes are reported as cached tokens (prompt-cache.ts).
 */
import {
  answerFor,
  asArray,
  asRecord,
  asString,
  type Conversation,
  countWords,
  fakeId,
  isRecord,
  type JsonObject,
  thoughtFor,
} from './behaviour';
import {
  type FakeContext,
  observedAnswer,
  openAiObservedUsage,
  runScenario,
  SSE_HEADERS,
  sendAnswer,
  sendError,
  sseFrame,
  writeStream,
} from './context';
import { seal } from './memory';
import { openAiError } from './openai-chat';
import { REASONING_PURPOSE, responsesProblem } from './openai-responses-checks';
import {
  answerItem,
  type Reply,
  reasoningTokens,
  responseObject,
  responsesUsage,
  type Shell,
  streamFrames,
} from './openai-responses-stream';
import { automaticCacheRead, type CacheSegment, without } from './prompt-cache';

function itemText(content: unknown): string {
  if (typeof content === 'string') return content;
  const texts: string[] = [];
  for (const part of asArray(content)) {
    const record = asRecord(part);
    if (typeof record?.text === 'string') texts.push(record.text);
  }
  return texts.join(' ');
}

const isToolOutput = (type: unknown): boolean => typeof type === 'string' && type.endsWith('_call_output');

/** Words an input item adds to the input count. */
function itemWords(item: JsonObject): number {
  if (isToolOutput(item.type)) return countWords([itemText(item.output)]);
  return typeof item.role === 'string' ? countWords([itemText(item.content)]) : 0;
}

function inputItems(body: JsonObject): JsonObject[] {
  if (typeof body.input === 'string') return [{ role: 'user', content: body.input }];
  return asArray(body.input).map((item) => asRecord(item) ?? {});
}

export function responsesConversation(body: JsonObject): Conversation {
  const texts: string[] = [];
  let last: Conversation['last'];
  if (typeof body.instructions === 'string' && body.instructions !== '') texts.push(body.instructions);
  for (const item of inputItems(body)) {
    if (isToolOutput(item.type)) {
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
  const toolParams: Record<string, string[]> = {};
  for (const value of asArray(body.tools)) {
    const tool = asRecord(value) ?? {};
    const name = asString(tool.name);
    if (tool.type !== 'function' || name === undefined) continue;
    tools.push(name);
    const properties = asRecord(asRecord(tool.parameters)?.properties);
    if (properties) toolParams[name] = Object.keys(properties);
  }
  return { texts, last, tools, toolParams };
}

/** The prompt in OpenAI's cache order: tools, instructions, then the input items (ids left out). */
function cacheSegments(body: JsonObject): CacheSegment[] {
  const segments: CacheSegment[] = [{ content: ['tools', body.tools ?? null], words: 0 }];
  const instructions = typeof body.instructions === 'string' ? body.instructions : '';
  segments.push({ content: ['instructions', instructions], words: countWords([instructions]) });
  const ignored = new Set(['id', 'status']);
  for (const item of inputItems(body))
    segments.push({ content: without(item, ignored), words: itemWords(item) });
  return segments;
}

/** The reasoning item, when the request asks for reasoning. */
function reasoningItem(ctx: FakeContext, body: JsonObject, thought: string): JsonObject | undefined {
  const reasoning = asRecord(body.reasoning);
  if (reasoning?.effort === undefined || reasoning.effort === 'none') return undefined;
  const id = fakeId('rs_');
  const summarized = typeof reasoning.summary === 'string' && reasoning.summary !== 'none';
  const item: JsonObject = {
    id,
    type: 'reasoning',
    summary: summarized ? [{ type: 'summary_text', text: thought }] : [],
  };
  if (asArray(body.include).includes('reasoning.encrypted_content')) {
    item.encrypted_content = seal(ctx.memory, REASONING_PURPOSE, JSON.stringify({ id, text: thought }));
  }
  return item;
}

/** One Responses API call, after routing and authentication. */
export async function answerResponses(ctx: FakeContext): Promise<void> {
  const body = isRecord(ctx.body) ? ctx.body : undefined;
  if (!body)
    return sendError(ctx, openAiError(400, 'invalid', 'We could not parse the JSON body of your request.'));
  const checked = responsesProblem(ctx.memory, body);
  ctx.observed.verifiedReasoning = checked.verified;
  if (checked.problem) {
    const { message, param, code } = checked.problem;
    return sendError(ctx, openAiError(400, 'invalid', message, { param, code }));
  }
  const model = String(body.model);
  const scenario = await runScenario(ctx, model, openAiError);
  if (!scenario) return;
  const conversation = responsesConversation(body);
  const result = answerFor(conversation, model);
  const scope = `openai\n${model}\n${asString(body.prompt_cache_key) ?? ''}`;
  const reply: Reply = { result, cachedTokens: automaticCacheRead(ctx.memory, scope, cacheSegments(body)) };
  const thought = thoughtFor(conversation, result);
  const reasoning = reasoningItem(ctx, body, thought);
  if (reasoning) {
    reply.reasoning = { item: reasoning, thought };
    ctx.observed.reasoning = thought;
  }
  const item = answerItem(result, fakeId('call_'), fakeId(result.kind === 'tool' ? 'fc_' : 'msg_'));
  if (reasoning && item.type === 'function_call')
    ctx.memory.reasoningForCall.set(String(item.id), String(reasoning.id));
  ctx.observed.answer = observedAnswer(result);
  ctx.observed.usage = openAiObservedUsage(result, reply.cachedTokens, reasoningTokens(reply));
  const output = reasoning ? [reasoning, item] : [item];
  const shell: Shell = { id: fakeId('resp_'), createdAt: Math.floor(Date.now() / 1000), model, body };
  if (body.stream !== true) {
    return sendAnswer(ctx, responseObject(shell, 'completed', output, responsesUsage(reply)), scenario);
  }
  await writeStream(ctx, SSE_HEADERS, streamFrames(shell, reply, output), {
    ...scenario,
    model,
    // The Responses API's `error` event, as it sends when a response fails part way.
    errorFrame: sseFrame(
      {
        type: 'error',
        code: 'server_error',
        message: 'The server had an error while processing your request.',
        param: null,
      },
      'error',
    ),
  });
}
