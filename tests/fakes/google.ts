/**
 * The Gemini API (`/{version}/models/{model}:generateContent` and
 * `:streamGenerateContent`, key in `x-goog-api-key` or `?key=`; `:embedContent` and
 * `:batchEmbedContents` in google-embeddings.ts). With `alt=sse` the stream
 * is SSE with CRLF line endings, one whole GenerateContentResponse per event; without it, a
 * JSON array written piecemeal. Errors are google.rpc.Status bodies; a wrong key is a 400
 * INVALID_ARGUMENT with reason API_KEY_INVALID, a missing one a 403, as Google answers.
 */
import {
  type Answer,
  answer,
  asArray,
  asRecord,
  asString,
  type Conversation,
  countWords,
  fakeId,
  isRecord,
  type JsonObject,
  wordDeltas,
} from './behaviour';
import {
  type ErrorKind,
  type FakeContext,
  runScenario,
  sendAnswer,
  sendError,
  sseFrame,
  type VendorError,
  writeStream,
} from './context';
import { answerGeminiEmbeddings } from './google-embeddings';

const STATUS_NAMES: Readonly<Record<ErrorKind, string>> = {
  auth: 'UNAUTHENTICATED',
  invalid: 'INVALID_ARGUMENT',
  rate_limit: 'RESOURCE_EXHAUSTED',
  unavailable: 'UNAVAILABLE',
  not_found: 'NOT_FOUND',
  server: 'INTERNAL',
};

export function googleError(
  status: number,
  kind: ErrorKind,
  message: string,
  details?: unknown[],
): VendorError {
  const name = status === 403 ? 'PERMISSION_DENIED' : STATUS_NAMES[kind];
  const error: JsonObject = { code: status, message, status: name };
  if (details) error.details = details;
  else if (kind === 'rate_limit') {
    error.details = [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1s' }];
  }
  return { status, body: { error } };
}

function keyFailure(ctx: FakeContext): VendorError | undefined {
  const key = ctx.headers['x-goog-api-key'] ?? ctx.query.get('key') ?? undefined;
  if (key === undefined || key === '') {
    const message =
      "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.";
    return googleError(403, 'auth', message);
  }
  if (key === ctx.apiKey) return undefined;
  const reason = {
    '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
    reason: 'API_KEY_INVALID',
    domain: 'googleapis.com',
    metadata: { service: 'generativelanguage.googleapis.com' },
  };
  return googleError(400, 'invalid', 'API key not valid. Please pass a valid API key.', [reason]);
}

function responseText(response: unknown): string {
  const record = asRecord(response) ?? {};
  const text = asString(record.content) ?? asString(record.error);
  return text ?? JSON.stringify(record);
}

export function geminiConversation(body: JsonObject): Conversation {
  const texts: string[] = [];
  let last: Conversation['last'];
  const systemParts = asArray(asRecord(body.systemInstruction)?.parts);
  for (const part of systemParts) texts.push(asString(asRecord(part)?.text) ?? '');
  for (const value of asArray(body.contents)) {
    const content = asRecord(value) ?? {};
    const parts = asArray(content.parts).map((part) => asRecord(part) ?? {});
    const text = parts.flatMap((part) => asString(part.text) ?? []).join(' ');
    const results = parts.flatMap((part) => (part.functionResponse ? [part.functionResponse] : []));
    const resultText = results.map((result) => responseText(asRecord(result)?.response)).join(' ');
    texts.push(text, resultText);
    if (content.role !== 'user') continue;
    last = results.length > 0 ? { kind: 'tool_result', text: resultText } : { kind: 'text', text };
  }
  const tools = asArray(body.tools).flatMap((tool) =>
    asArray(asRecord(tool)?.functionDeclarations).flatMap((fn) => asString(asRecord(fn)?.name) ?? []),
  );
  return { texts, last, tools };
}

const DATA_FIELDS = ['text', 'inlineData', 'fileData', 'functionCall', 'functionResponse'];

function validate(body: JsonObject): string | undefined {
  const contents = asArray(body.contents);
  if (contents.length === 0) return '* GenerateContentRequest.contents: contents is not specified';
  for (const [i, value] of contents.entries()) {
    const content = asRecord(value) ?? {};
    if (content.role !== 'user' && content.role !== 'model') return 'Please use a valid role: user, model.';
    for (const [j, part] of asArray(content.parts).entries()) {
      if (!DATA_FIELDS.some((field) => asRecord(part)?.[field] !== undefined)) {
        return `* GenerateContentRequest.contents[${i}].parts[${j}].data: required oneof field 'data' must have one initialized field`;
      }
    }
  }
  return undefined;
}

function usageMetadata(result: Answer, outputTokens: number): JsonObject {
  return {
    promptTokenCount: result.inputTokens,
    candidatesTokenCount: outputTokens,
    totalTokenCount: result.inputTokens + outputTokens,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: result.inputTokens }],
  };
}

interface Shell {
  model: string;
  responseId: string;
}

function chunk(shell: Shell, parts: JsonObject[], finish: boolean, usage: JsonObject): JsonObject {
  const candidate: JsonObject = { content: { parts, role: 'model' } };
  if (finish) candidate.finishReason = 'STOP';
  candidate.index = 0;
  return {
    candidates: [candidate],
    usageMetadata: usage,
    modelVersion: shell.model,
    responseId: shell.responseId,
  };
}

function callPart(result: Extract<Answer, { kind: 'tool' }>): JsonObject {
  return { functionCall: { name: result.name, args: JSON.parse(result.arguments) } };
}

/** Gemini says STOP after a function call too; it has no tool-use finish reason. */
function fullResponse(shell: Shell, result: Answer): JsonObject {
  const parts = result.kind === 'text' ? [{ text: result.text }] : [callPart(result)];
  return chunk(shell, parts, true, usageMetadata(result, result.outputTokens));
}

/** Text word by word with cumulative usage; a function call arrives whole, as Gemini sends it. */
function streamChunks(shell: Shell, result: Answer): JsonObject[] {
  if (result.kind === 'tool') return [fullResponse(shell, result)];
  const words = wordDeltas(result.text);
  let said = '';
  return words.map((text, n) => {
    said += text;
    const done = n === words.length - 1;
    const usage = usageMetadata(result, done ? result.outputTokens : countWords([said]));
    return chunk(shell, [{ text }], done, usage);
  });
}

function arrayFrames(chunks: JsonObject[]): string[] {
  return chunks
    .map((value, n) => `${n === 0 ? '[' : ',\r\n'}${JSON.stringify(value, null, 2)}\n`)
    .concat(']');
}

const METHODS = 'generateContent|streamGenerateContent|embedContent|batchEmbedContents';
const ROUTE = new RegExp(`^/google/v\\d+\\w*/models/([^/:]+):(${METHODS})$`);

/** `google`: POST `/google/{version}/models/{model}:{method}`, one of METHODS. */
export async function handleGoogle(ctx: FakeContext): Promise<void> {
  const route = ROUTE.exec(ctx.rawPath);
  if (!route || ctx.req.method !== 'POST') {
    return sendError(ctx, googleError(404, 'not_found', `The requested URL ${ctx.rawPath} was not found.`));
  }
  const failure = keyFailure(ctx);
  if (failure) return sendError(ctx, failure);
  const model = decodeURIComponent(route[1] ?? '');
  const method = route[2];
  if (method === 'embedContent' || method === 'batchEmbedContents') {
    return answerGeminiEmbeddings(ctx, model, method);
  }
  const body = isRecord(ctx.body) ? ctx.body : undefined;
  const invalid = body ? validate(body) : 'Invalid JSON payload received.';
  if (!body || invalid !== undefined) return sendError(ctx, googleError(400, 'invalid', invalid ?? ''));
  const scenario = await runScenario(ctx, model, googleError);
  if (!scenario) return;
  const result = answer(geminiConversation(body));
  const shell = { model, responseId: fakeId('', 22) };
  if (method === 'generateContent') return sendAnswer(ctx, fullResponse(shell, result), scenario);
  const chunks = streamChunks(shell, result);
  if (ctx.query.get('alt') === 'sse') {
    const frames = chunks.map((value) => sseFrame(value, undefined, '\r\n'));
    return writeStream(ctx, { 'content-type': 'text/event-stream' }, frames, {
      cut: scenario.cut,
      stall: scenario.stall,
      model,
    });
  }
  await writeStream(ctx, { 'content-type': 'application/json; charset=UTF-8' }, arrayFrames(chunks), {
    cut: scenario.cut,
    stall: scenario.stall,
    model,
  });
}
