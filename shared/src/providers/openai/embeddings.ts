/**
 * OpenAI's `POST /embeddings`, parameterised by where and as whom to call it, so Azure
 * (deployment in the path, no `model` in the body) and custom OpenAI-compatible servers
 * compose it the way they compose chat.
 */
import {
  type EmbeddingRequest,
  type EmbeddingResult,
  type EmbeddingsAdapter,
  type EmbeddingVector,
  embeddingInputCount,
  type VendorAnswer,
} from '../../canonical/embeddings';
import type { UpstreamCall, UpstreamTarget } from '../../canonical/ports';
import { base64ToFloat32 } from '../../util/float32-base64';
import { floatVector, malformedEmbeddings } from '../common/embeddings';
import { asArray, asNumber, asRecord, type JsonObject, postJson } from '../common/json';
import type { ChatApi } from './api';

export interface OpenAiEmbeddingsOptions {
  /** Names the vendor in errors. */
  vendor: string;
  api: ChatApi;
  /** False for Azure, whose deployment in the URL picks the model. */
  sendModel: boolean;
}

/**
 * `encoding_format` always goes as the client asked, so a base64 answer is passed on as it
 * came instead of being decoded and encoded again.
 */
export function toOpenAiEmbeddingsBody(
  request: EmbeddingRequest,
  target: UpstreamTarget,
  sendModel: boolean,
): JsonObject {
  return {
    ...(sendModel && { model: target.upstreamModel }),
    input: request.input.kind === 'text' ? request.input.texts : request.input.tokens,
    encoding_format: request.encodingFormat,
    ...(request.dimensions !== undefined && { dimensions: request.dimensions }),
    ...(request.user !== undefined && { user: request.user }),
  };
}

/**
 * A vector in the form the client asked for where the vendor allowed it: base64 passes as
 * is; a server that sent base64 to a float request is decoded (the gateway only encodes).
 */
function vectorOf(value: unknown, format: EmbeddingRequest['encodingFormat']): EmbeddingVector | undefined {
  if (typeof value !== 'string') return floatVector(value);
  if (value === '') return undefined;
  return format === 'base64' ? value : base64ToFloat32(value);
}

/** `data[]` in `index` order; every index from 0 to n-1 exactly once. */
export function parseOpenAiEmbeddings(
  body: unknown,
  request: EmbeddingRequest,
  vendor: string,
): EmbeddingResult {
  const data = asArray(asRecord(body)?.data);
  const count = embeddingInputCount(request.input);
  if (data.length !== count) throw malformedEmbeddings(vendor, 'one vector per input');
  const slots: Array<EmbeddingVector | undefined> = new Array(count).fill(undefined);
  for (const [position, item] of data.entries()) {
    const record = asRecord(item);
    const index = asNumber(record?.index) ?? position;
    const vector = vectorOf(record?.embedding, request.encodingFormat);
    if (!vector) throw malformedEmbeddings(vendor, 'a vector for every input');
    if (!Number.isInteger(index) || index < 0 || index >= count || slots[index] !== undefined) {
      throw malformedEmbeddings(vendor, 'a distinct index for every input');
    }
    slots[index] = vector;
  }
  const promptTokens = asNumber(asRecord(asRecord(body)?.usage)?.prompt_tokens);
  return { vectors: slots.filter((vector) => vector !== undefined), inputTokens: promptTokens ?? null };
}

export function createOpenAiEmbeddings(options: OpenAiEmbeddingsOptions): EmbeddingsAdapter {
  return {
    // Text and token arrays alike: the OpenAI API takes both.
    accepts: () => true,
    async buildCalls(request: EmbeddingRequest, target: UpstreamTarget): Promise<UpstreamCall[]> {
      const body = toOpenAiEmbeddingsBody(request, target, options.sendModel);
      return [postJson(options.api.url(target), options.api.headers(target), body)];
    },
    parseAnswers(answers: VendorAnswer[], request: EmbeddingRequest): EmbeddingResult {
      const [answer] = answers;
      if (!answer || answers.length !== 1)
        throw malformedEmbeddings(options.vendor, 'an answer to its one call');
      return parseOpenAiEmbeddings(answer.body, request, options.vendor);
    },
  };
}
