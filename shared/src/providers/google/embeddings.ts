/**
 * Gemini API embeddings: `:embedContent` for one text, `:batchEmbedContents` for several
 * (at most 100 per call, so larger inputs become several calls). Text only: Gemini has no
 * token-array input.
 */
import type { UpstreamCall, UpstreamTarget } from '../../canonical/ports';
import { batches, createTextEmbeddings } from '../common/embeddings';
import { asNumber, asRecord, type JsonObject, postJson } from '../common/json';
import { geminiHeaders, geminiMethodUrl, geminiModelId } from './api';

const VENDOR = 'google';

/** batchEmbedContents refuses more requests than this in one batch. */
export const GEMINI_EMBED_BATCH_LIMIT = 100;

function call(target: UpstreamTarget, method: string, body: JsonObject): UpstreamCall {
  return postJson(geminiMethodUrl(target, method), geminiHeaders(target), body);
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

export const googleEmbeddings = createTextEmbeddings({
  vendor: VENDOR,
  async callsFor(texts, request, target) {
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
  readAnswer: (answer) => ({ vectors: rawVectors(answer.body), inputTokens: promptTokens(answer.body) }),
});
