/**
 * Gemini API embeddings: `:embedContent` for one text, `:batchEmbedContents` for several
 * (at most 100 per call, so larger inputs become several calls). Text only: Gemini has no
 * token-array input.
 */
import type {
  EmbeddingRequest,
  EmbeddingResult,
  EmbeddingsAdapter,
  VendorAnswer,
} from '../../canonical/embeddings';
import type { UpstreamCall, UpstreamTarget } from '../../canonical/ports';
import {
  batches,
  malformedEmbeddings,
  oneFloatVectorPerInput,
  sumOrNull,
  textInputs,
} from '../common/embedding-answers';
import { asNumber, asRecord, type JsonObject } from '../common/openai-anthropic-json';
import { geminiHeaders, geminiMethodUrl, geminiModelId } from './api';

const VENDOR = 'google';

/** batchEmbedContents refuses more requests than this in one batch. */
export const GEMINI_EMBED_BATCH_LIMIT = 100;

function call(target: UpstreamTarget, method: string, body: JsonObject): UpstreamCall {
  return {
    url: geminiMethodUrl(target, method),
    init: { method: 'POST', headers: geminiHeaders(target), body: JSON.stringify(body) },
  };
}

function embedContent(text: string, dimensions: number | undefined): JsonObject {
  return {
    content: { parts: [{ text }] },
    ...(dimensions !== undefined && { outputDimensionality: dimensions }),
  };
}

/** The vectors of one answer: `embeddings[]` (batch) or `embedding` (single), raw. */
function rawVectors(body: unknown): unknown[] {
  const record = asRecord(body);
  const many = record?.embeddings;
  const list = Array.isArray(many) ? many : record?.embedding !== undefined ? [record.embedding] : [];
  return list.map((item) => asRecord(item)?.values);
}

/** Only Vertex-style answers count tokens; the Gemini API's embeddings do not. */
function promptTokens(body: unknown): number | null {
  return asNumber(asRecord(asRecord(body)?.usageMetadata)?.promptTokenCount) ?? null;
}

export const googleEmbeddings: EmbeddingsAdapter = {
  accepts: (request) => request.input.kind === 'text',
  async buildCalls(request: EmbeddingRequest, target: UpstreamTarget): Promise<UpstreamCall[]> {
    const texts = textInputs(request, VENDOR);
    const [only] = texts;
    if (texts.length === 1 && only !== undefined) {
      return [call(target, 'embedContent', embedContent(only, request.dimensions))];
    }
    // Each batched request names its model, and Gemini insists it be the one in the URL.
    const model = `models/${geminiModelId(target)}`;
    return batches(texts, GEMINI_EMBED_BATCH_LIMIT).map((batch) =>
      call(target, 'batchEmbedContents', {
        requests: batch.map((text) => ({ model, ...embedContent(text, request.dimensions) })),
      }),
    );
  },
  parseAnswers(answers: VendorAnswer[], request: EmbeddingRequest): EmbeddingResult {
    if (answers.length === 0) throw malformedEmbeddings(VENDOR, 'an answer');
    const raw = answers.flatMap((answer) => rawVectors(answer.body));
    return {
      vectors: oneFloatVectorPerInput(raw, request, VENDOR),
      inputTokens: sumOrNull(answers.map((answer) => promptTokens(answer.body))),
    };
  },
};
