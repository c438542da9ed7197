/**
 * The gateway's answer to `POST /v1/embeddings`, OpenAI's shape whatever the vendor: one
 * `embedding` object per input in input order, each vector as floats or as base64 of its
 * little-endian float32 bytes (what `encoding_format: "base64"` means), under the client's
 * model name, with the input tokens as usage.
 */
import type { EmbeddingRequest, EmbeddingVector } from '../../canonical/embeddings';

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
  if (typeof vector === 'string') return vector;
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  vector.forEach((value, i) => {
    view.setFloat32(i * 4, value, true);
  });
  // In slices: String.fromCharCode takes its bytes as arguments, and arguments are bounded.
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** A vendor that sent base64 although floats were asked for: decoded, not passed on as is. */
function asFloats(vector: EmbeddingVector): number[] {
  if (typeof vector !== 'string') return vector;
  const binary = atob(vector);
  const view = new DataView(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) view.setUint8(i, binary.charCodeAt(i));
  return Array.from({ length: Math.floor(binary.length / 4) }, (_, i) => view.getFloat32(i * 4, true));
}
