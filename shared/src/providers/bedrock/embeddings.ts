/**
 * Bedrock embeddings through InvokeModel (`/model/{id}/invoke`, SigV4 as for Converse),
 * whose body is each model family's own: a table below says, per family, how many texts
 * one call carries and what body it takes. Text only.
 */
import type { VendorAnswer } from '../../canonical/embeddings';
import { type AnswerContent, batches, createTextEmbeddings, malformedEmbeddings } from '../common/embeddings';
import { asNumber, asRecord, type JsonObject } from '../common/json';
import { bedrockInvokeUrl, bedrockRegion, signBedrockCall } from './api';

const VENDOR = 'bedrock';

export type EmbeddingFamilyName = 'titan-text' | 'titan-multimodal' | 'cohere';

interface EmbeddingFamily {
  /** The most texts one InvokeModel call may carry. */
  textsPerCall: number;
  body(texts: string[], dimensions: number | undefined): JsonObject;
}

/**
 * Titan v2 normalises by default (as OpenAI's vectors are), so `normalize` is left out.
 * Models that cannot shorten (Titan v1, Cohere v3) refuse a size with a ValidationException,
 * as OpenAI's older models refuse `dimensions`.
 */
export const EMBEDDING_FAMILIES: Readonly<Record<EmbeddingFamilyName, EmbeddingFamily>> = {
  'titan-text': {
    textsPerCall: 1,
    body: ([inputText], dimensions) => ({ inputText, ...(dimensions !== undefined && { dimensions }) }),
  },
  'titan-multimodal': {
    textsPerCall: 1,
    body: ([inputText], dimensions) => ({
      inputText,
      ...(dimensions !== undefined && { embeddingConfig: { outputEmbeddingLength: dimensions } }),
    }),
  },
  // OpenAI's API has no query/document distinction; its inputs are most often documents.
  cohere: {
    textsPerCall: 96,
    body: (texts, dimensions) => ({
      texts,
      input_type: 'search_document',
      embedding_types: ['float'],
      ...(dimensions !== undefined && { output_dimension: dimensions }),
    }),
  },
};

/** Matched in order anywhere in the id, so ARNs and cross-region profiles (`us.cohere.…`) match. */
const FAMILY_PATTERNS: ReadonlyArray<readonly [RegExp, EmbeddingFamilyName]> = [
  [/cohere\.embed/, 'cohere'],
  [/amazon\.titan-embed-image/, 'titan-multimodal'],
  [/amazon\.titan-embed/, 'titan-text'],
];

/**
 * An id no pattern knows (an application inference profile hides its model) is sent Titan's
 * shape rather than refused: `accepts()` never sees the model id, and a model wanting another
 * body answers a ValidationException that maps like any upstream error (and can fall back).
 */
export function embeddingFamilyOf(modelId: string): EmbeddingFamilyName {
  return FAMILY_PATTERNS.find(([pattern]) => pattern.test(modelId))?.[1] ?? 'titan-text';
}

/** InvokeModel reports input tokens in this header, for every model. */
const INPUT_TOKENS_HEADER = 'x-amzn-bedrock-input-token-count';

function headerTokens(answer: VendorAnswer): number | null {
  const value = answer.headers.get(INPUT_TOKENS_HEADER);
  const count = value === null || value.trim() === '' ? Number.NaN : Number(value);
  return Number.isInteger(count) && count >= 0 ? count : null;
}

/** Titan: `{embedding, inputTextTokenCount}`. */
function readTitan(answer: VendorAnswer): AnswerContent | undefined {
  const body = asRecord(answer.body);
  if (body?.embedding === undefined) return undefined;
  const inputTokens = asNumber(body.inputTextTokenCount) ?? headerTokens(answer);
  return { vectors: [body.embedding], inputTokens };
}

/** Cohere: `embeddings` as a list (embeddings_floats) or by type (embeddings_by_type). */
function readCohere(answer: VendorAnswer): AnswerContent | undefined {
  const embeddings = asRecord(answer.body)?.embeddings;
  const list = Array.isArray(embeddings) ? embeddings : asRecord(embeddings)?.float;
  return Array.isArray(list) ? { vectors: list, inputTokens: headerTokens(answer) } : undefined;
}

/** `parseAnswers` is not told the model, so each answer is read by the shape it has. */
const ANSWER_READERS = [readTitan, readCohere] as const;

function readAnswer(answer: VendorAnswer): AnswerContent {
  for (const read of ANSWER_READERS) {
    const content = read(answer);
    if (content) return content;
  }
  throw malformedEmbeddings(VENDOR, 'an embedding or embeddings field');
}

export const bedrockEmbeddings = createTextEmbeddings({
  vendor: VENDOR,
  async callsFor(texts, request, target) {
    const family = EMBEDDING_FAMILIES[embeddingFamilyOf(target.upstreamModel)];
    const region = bedrockRegion(target);
    const url = bedrockInvokeUrl(target, region);
    return Promise.all(
      batches(texts, family.textsPerCall).map((batch) => {
        const body = JSON.stringify(family.body(batch, request.dimensions));
        return signBedrockCall(url, body, target, region, { stream: false });
      }),
    );
  },
  readAnswer,
});
