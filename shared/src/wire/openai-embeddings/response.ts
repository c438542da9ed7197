/**
 * The gateway's answer to `POST /v1/embeddings`, OpenAI's shape whatever the vendor: one
 * `embedding` object per input in input order, each vector as floats or as base64 of its
 * little-endian float32 bytes (what `encoding_format: "base64"` means), under the client's
 * model name, with the input tokens as usage.
 */
import type { EmbeddingRequest, EmbeddingVector } from '../../canonical/embeddings';
import { base64ToFloat32, float32ToBase64 } from '../../util/float32-base64';

export interface EmbeddingsResponse {
  object: 'list';
  data: Array<{ object: 'embedding'; index: number; embedding: number[] | string }>;
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
}

export function renderEmbeddings(
  vectors: readonly EmbeddingVector[],
  request: EmbeddingRequest,
  inputTokens: number,
): EmbeddingsResponse {
  return {
    object: 'list',
    data: vectors.map((vector, index) => ({
      object: 'embedding',
      index,
      embedding: request.encodingFormat === 'base64' ? asBase64(vector) : asFloats(vector),
    })),
    model: request.model,
    usage: { prompt_tokens: inputTokens, total_tokens: inputTokens },
  };
}

function asBase64(vector: EmbeddingVector): string {
  return typeof vector === 'string' ? vector : float32ToBase64(vector);
}

/** A vendor that sent base64 although floats were asked for: decoded, not passed on as is. */
function asFloats(vector: EmbeddingVector): number[] {
  return typeof vector === 'string' ? (base64ToFloat32(vector) ?? []) : vector;
}
