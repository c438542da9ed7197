/**
 * Gemini API embeddings: `:embedContent` (`{content, outputDimensionality?}` →
 * `{embedding: {values}}`) and `:batchEmbedContents` (`{requests: [...]}`, each naming the
 * URL's model, at most 100 → `{embeddings: [{values}]}`). Like the real Gemini API, the
 * answers carry no token counts.
 */
import { asArray, asRecord, asString, isRecord, type JsonObject } from './behaviour';
import { type FakeContext, runScenario, sendAnswer, sendError } from './context';
import { FAKE_EMBEDDING_DIMENSIONS, fakeVector } from './embeddings';
import { googleError } from './google';

export type EmbedMethod = 'embedContent' | 'batchEmbedContents';

const BATCH_LIMIT = 100;

/** The text of a Content (its text parts joined), or undefined when it holds none. */
function contentText(content: unknown): string | undefined {
  const texts = asArray(asRecord(content)?.parts).flatMap((part) => asString(asRecord(part)?.text) ?? []);
  const text = texts.join(' ');
  return text.trim() === '' ? undefined : text;
}

/** One EmbedContentRequest's problem, prefixed by where it is (`EmbedContentRequest` or `requests[i]`). */
function requestProblem(request: JsonObject, where: string): string | undefined {
  if (request.content === undefined) return `* ${where}.content: contents is not specified\n`;
  if (contentText(request.content) === undefined) return `* ${where}.content: The text content is empty.\n`;
  const size = request.outputDimensionality;
  if (size !== undefined && !(Number.isInteger(size) && Number(size) >= 1)) {
    return `* ${where}.output_dimensionality: must be a positive integer\n`;
  }
  if (typeof size === 'number' && size > FAKE_EMBEDDING_DIMENSIONS) {
    return `* ${where}.output_dimensionality: must be at most ${FAKE_EMBEDDING_DIMENSIONS}\n`;
  }
  return undefined;
}

function batchProblem(body: JsonObject, model: string): string | undefined {
  const requests = asArray(body.requests);
  if (requests.length === 0) return '* BatchEmbedContentsRequest.requests: requests is not specified\n';
  if (requests.length > BATCH_LIMIT) {
    return `* BatchEmbedContentsRequest.requests: at most ${BATCH_LIMIT} requests can be in one batch\n`;
  }
  for (const [i, value] of requests.entries()) {
    const request = asRecord(value) ?? {};
    const where = `BatchEmbedContentsRequest.requests[${i}]`;
    if (request.model !== `models/${model}`) {
      return `* ${where}.model: model must be the one in the URL (models/${model}), got ${String(request.model)}\n`;
    }
    const problem = requestProblem(request, where);
    if (problem) return problem;
  }
  return undefined;
}

function embedding(request: JsonObject): JsonObject {
  const size = typeof request.outputDimensionality === 'number' ? request.outputDimensionality : undefined;
  return { values: fakeVector(contentText(request.content) ?? '', size) };
}

function answerOf(method: EmbedMethod, body: JsonObject): JsonObject {
  if (method === 'embedContent') return { embedding: embedding(body) };
  return { embeddings: asArray(body.requests).map((request) => embedding(asRecord(request) ?? {})) };
}

/** One embeddings call, after routing and the key check. */
export async function answerGeminiEmbeddings(
  ctx: FakeContext,
  model: string,
  method: EmbedMethod,
): Promise<void> {
  const body = isRecord(ctx.body) ? ctx.body : undefined;
  const invalid = !body
    ? 'Invalid JSON payload received.'
    : method === 'embedContent'
      ? requestProblem(body, 'EmbedContentRequest')
      : batchProblem(body, model);
  if (!body || invalid !== undefined) return sendError(ctx, googleError(400, 'invalid', invalid ?? ''));
  const scenario = await runScenario(ctx, model, googleError);
  if (!scenario) return;
  await sendAnswer(ctx, answerOf(method, body), scenario);
}
