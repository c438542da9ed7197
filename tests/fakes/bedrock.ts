/**
 * Amazon Bedrock Runtime Converse (`/model/{modelId}/converse`) and ConverseStream
 * (`/model/{modelId}/converse-stream`, binary `application/vnd.amazon.eventstream` frames),
 * plus InvokeModel for embedding models (`/invoke`, bedrock-embeddings.ts), all
 * SigV4-authenticated. Errors are `{message}` bodies named by `x-amzn-ErrorType`; bad
 * credentials get AWS's 403s (UnrecognizedClientException, InvalidSignatureException, …).
 * Claude models take `thinking` and `anthropic_beta` and answer with signed reasoning first
 * (bedrock-claude.ts); `cachePoint` blocks are honoured with cache reads and writes in the
 * usage (bedrock-cache.ts).
 */
import { randomUUID } from 'node:crypto';
import { encodeEventStreamJson } from '../../shared/test/providers/common/eventstream-encoder';
import { bedrockCacheUsage, cacheFields, cachePointProblem } from './bedrock-cache';
import { readClaudeFields, reasoningBlock } from './bedrock-claude';
import { answerInvoke } from './bedrock-embeddings';
import {
  type Answer,
  answer,
  argumentFragments,
  asArray,
  asRecord,
  asString,
  type Conversation,
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
  type ObservedUsage,
  observedAnswer,
  runScenario,
  sendAnswer,
  sendError,
  type VendorError,
  writeStream,
} from './context';
import type { CacheUsage } from './prompt-cache';
import { verifySigV4 } from './sigv4';

/** The AWS credential the fake accepts, and the region it lives in. */
export const FAKE_BEDROCK_CREDENTIALS = {
  accessKeyId: 'AKIAFAKEUPSTREAM0001',
  secretAccessKey: 'fakeUpstreamSecret/0123456789+abcdefghijk',
  region: 'us-east-1',
} as const;

const EXCEPTIONS: Readonly<Record<ErrorKind, [name: string, message: string]>> = {
  auth: ['AccessDeniedException', 'You do not have access to the model with the specified model ID.'],
  invalid: ['ValidationException', 'The provided request is not valid.'],
  rate_limit: ['ThrottlingException', 'Too many requests, please wait before trying again.'],
  unavailable: ['ServiceUnavailableException', 'Service is temporarily unavailable. Please try again later.'],
  not_found: ['ResourceNotFoundException', 'The requested resource could not be found.'],
  server: ['InternalServerException', 'The server encountered an internal error.'],
};

function awsError(status: number, exception: string, message: string): VendorError {
  return {
    status,
    body: { message },
    headers: {
      'x-amzn-errortype': `${exception}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
      'x-amzn-requestid': randomUUID(),
    },
  };
}

/** Scenario failures: the exception Bedrock uses for that status, with its usual wording. */
export function bedrockError(status: number, kind: ErrorKind, message: string): VendorError {
  const [exception, usual] = EXCEPTIONS[kind];
  return awsError(status, exception, kind === 'invalid' ? message : `${usual} (${message})`);
}

export function converseConversation(body: JsonObject): Conversation {
  const texts = asArray(body.system).flatMap((block) => asString(asRecord(block)?.text) ?? []);
  let last: Conversation['last'];
  for (const value of asArray(body.messages)) {
    const message = asRecord(value) ?? {};
    const blocks = asArray(message.content).map((block) => asRecord(block) ?? {});
    const text = blocks.flatMap((block) => asString(block.text) ?? []).join(' ');
    const results = blocks
      .map((block) => asRecord(block.toolResult))
      .filter((result) => result !== undefined);
    const resultText = results
      .flatMap((result) => asArray(result.content).flatMap((item) => asString(asRecord(item)?.text) ?? []))
      .join(' ');
    texts.push(text, resultText);
    if (message.role !== 'user') continue;
    last = results.length > 0 ? { kind: 'tool_result', text: resultText } : { kind: 'text', text };
  }
  const tools: string[] = [];
  const toolParams: Record<string, string[]> = {};
  for (const value of asArray(asRecord(body.toolConfig)?.tools)) {
    const spec = asRecord(asRecord(value)?.toolSpec);
    const name = asString(spec?.name);
    if (name === undefined) continue;
    tools.push(name);
    const properties = asRecord(asRecord(asRecord(spec?.inputSchema)?.json)?.properties);
    if (properties) toolParams[name] = Object.keys(properties);
  }
  return { texts, last, tools, toolParams };
}

/** The ValidationExceptions Converse raises for conversations an adapter might build. */
function validate(body: JsonObject): string | undefined {
  const messages = asArray(body.messages).map((message) => asRecord(message) ?? {});
  if (messages.length === 0)
    return "1 validation error detected: Value at 'messages' failed to satisfy constraint";
  if (messages[0]?.role !== 'user') return 'A conversation must start with a user message.';
  for (const [i, message] of messages.entries()) {
    if (i > 0 && message.role === messages[i - 1]?.role) {
      return 'A conversation must alternate between user and assistant roles.';
    }
    for (const [j, block] of asArray(message.content).entries()) {
      const record = asRecord(block) ?? {};
      if (typeof record.text === 'string' && record.text.trim() === '') {
        return `The text field in the ContentBlock object at messages.${i}.content.${j} is blank.`;
      }
      if ((record.toolUse || record.toolResult) && !isRecord(body.toolConfig)) {
        return 'The toolConfig field must be defined when using toolUse and toolResult content blocks.';
      }
    }
  }
  return undefined;
}

const stopReason = (result: Answer): string => (result.kind === 'tool' ? 'tool_use' : 'end_turn');

/** One Converse answer: the model's reasoning (thinking on), its reply, and the prompt cache's say. */
interface Reply {
  result: Answer;
  /** The reasoning content block and its text, when thinking is on. */
  reasoning?: { block: JsonObject; text: string };
  cache?: CacheUsage;
}

/** Without checkpoints there are no cache fields at all, as Converse answers. */
function converseUsage({ result, reasoning, cache }: Reply): JsonObject {
  const outputTokens = result.outputTokens + (reasoning ? countWords([reasoning.text]) : 0);
  const cached = cache ? cache.read + cache.write5m + cache.write1h : 0;
  return {
    inputTokens: Math.max(0, result.inputTokens - cached),
    outputTokens,
    totalTokens: result.inputTokens + outputTokens,
    ...(cache && cacheFields(cache)),
  };
}

/** The usage converseUsage reports, in the observation's shape; Converse counts no reasoning apart. */
function observedUsage(reply: Reply): ObservedUsage {
  const usage = converseUsage(reply);
  const cacheRead = Number(usage.cacheReadInputTokens ?? 0);
  const cacheWrite = Number(usage.cacheWriteInputTokens ?? 0);
  return {
    input: Number(usage.inputTokens) + cacheRead + cacheWrite,
    output: Number(usage.outputTokens),
    cacheRead,
    cacheWrite,
    reasoning: 0,
  };
}

function answerBlock(result: Answer): JsonObject {
  return result.kind === 'text'
    ? { text: result.text }
    : { toolUse: { input: JSON.parse(result.arguments), name: result.name, toolUseId: fakeId('tooluse_') } };
}

function converseResponse(reply: Reply): JsonObject {
  const content = [...(reply.reasoning ? [reply.reasoning.block] : []), answerBlock(reply.result)];
  return {
    metrics: { latencyMs: 42 },
    output: { message: { content, role: 'assistant' } },
    stopReason: stopReason(reply.result),
    usage: converseUsage(reply),
  };
}

const PADDING = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** Reasoning streams as its text word by word, then its signature (or redacted content whole). */
function reasoningEvents(block: JsonObject, at: JsonObject): Array<[string, JsonObject]> {
  const content = asRecord(block.reasoningContent) ?? {};
  const signed = asRecord(content.reasoningText);
  const deltas: JsonObject[] = signed
    ? [...wordDeltas(String(signed.text)).map((text) => ({ text })), { signature: signed.signature }]
    : [{ redactedContent: content.redactedContent }];
  return [
    ...deltas.map((reasoningContent): [string, JsonObject] => [
      'contentBlockDelta',
      { ...at, delta: { reasoningContent } },
    ]),
    ['contentBlockStop', at],
  ];
}

function answerEvents(result: Answer, at: JsonObject): Array<[string, JsonObject]> {
  const block: Array<[string, JsonObject]> =
    result.kind === 'text'
      ? wordDeltas(result.text).map((text) => ['contentBlockDelta', { ...at, delta: { text } }])
      : [
          [
            'contentBlockStart',
            { ...at, start: { toolUse: { name: result.name, toolUseId: fakeId('tooluse_') } } },
          ],
          ...argumentFragments(result.arguments).map((input): [string, JsonObject] => [
            'contentBlockDelta',
            { ...at, delta: { toolUse: { input } } },
          ]),
        ];
  return [...block, ['contentBlockStop', at]];
}

/** The events of one answer; each carries Bedrock's `p` padding field, as the real ones do. */
function streamEvents(reply: Reply): Array<[string, JsonObject]> {
  const { result, reasoning } = reply;
  return [
    ['messageStart', { role: 'assistant' }],
    ...(reasoning ? reasoningEvents(reasoning.block, { contentBlockIndex: 0 }) : []),
    ...answerEvents(result, { contentBlockIndex: reasoning ? 1 : 0 }),
    ['messageStop', { stopReason: stopReason(result) }],
    ['metadata', { metrics: { latencyMs: 42 }, usage: converseUsage(reply) }],
  ];
}

function streamFrames(reply: Reply): Uint8Array[] {
  return streamEvents(reply).map(([eventType, body], n) =>
    encodeEventStreamJson({
      messageType: 'event',
      eventType,
      body: { ...body, p: PADDING.slice(0, 5 + ((n * 7) % 50)) },
    }),
  );
}

function reply(ctx: FakeContext, body: JsonObject, model: string, thinking: boolean): Reply {
  const conversation = converseConversation(body);
  const result = answer(conversation);
  const out: Reply = { result, cache: bedrockCacheUsage(ctx.memory, body, model) };
  if (thinking) {
    const text = thoughtFor(conversation, result);
    out.reasoning = { block: reasoningBlock(ctx.memory, model, text), text };
    ctx.observed.reasoning = text;
  }
  ctx.observed.answer = observedAnswer(result);
  ctx.observed.usage = observedUsage(out);
  return out;
}

/** `bedrock`: POST `/bedrock/model/{modelId}/converse`, `/converse-stream` and `/invoke`. */
export async function handleBedrock(ctx: FakeContext): Promise<void> {
  const route = /^\/bedrock\/model\/([^/]+)\/(converse|converse-stream|invoke)$/.exec(ctx.rawPath);
  if (!route || ctx.req.method !== 'POST') {
    return sendError(ctx, awsError(404, 'UnknownOperationException', 'Unknown operation'));
  }
  const { accessKeyId, secretAccessKey, region } = FAKE_BEDROCK_CREDENTIALS;
  const request = {
    method: ctx.req.method,
    rawPath: ctx.rawPath,
    query: ctx.query,
    headers: ctx.headers,
    rawBody: ctx.rawBody,
  };
  const denied = verifySigV4(request, { accessKeyId, secretAccessKey, region, service: 'bedrock' });
  if (denied) return sendError(ctx, awsError(denied.status, denied.exception, denied.message));
  const model = decodeURIComponent(route[1] ?? '');
  if (route[2] === 'invoke') return answerInvoke(ctx, model);
  const body = isRecord(ctx.body) ? ctx.body : undefined;
  const claude = body ? readClaudeFields(ctx.memory, body, model) : undefined;
  ctx.observed.verifiedReasoning = claude?.verified ?? 0;
  const invalid = body
    ? (validate(body) ?? claude?.error ?? cachePointProblem(body, model))
    : 'The request body is not valid JSON.';
  if (!body || invalid !== undefined)
    return sendError(ctx, awsError(400, 'ValidationException', invalid ?? ''));
  const scenario = await runScenario(ctx, model, bedrockError);
  if (!scenario) return;
  const answered = reply(ctx, body, model, claude?.thinking === true);
  const requestId = { 'x-amzn-requestid': randomUUID() };
  if (route[2] === 'converse') return sendAnswer(ctx, converseResponse(answered), scenario, requestId);
  const headers = { 'content-type': 'application/vnd.amazon.eventstream', ...requestId };
  await writeStream(ctx, headers, streamFrames(answered), {
    cut: scenario.cut,
    stall: scenario.stall,
    model,
  });
}
