/**
 * The deterministic embedding "model" behind every fake vendor's embeddings API: a text's
 * vector depends only on the text and the length asked for, and its token count is its word
 * count, so tests can predict both exactly. Values are multiples of 1/256 in [-1, 1), exact
 * in float32, so a vector survives OpenAI's base64 (little-endian float32) encoding unchanged.
 */
import { countWords } from './behaviour';

export const FAKE_EMBEDDING_DIMENSIONS = 8;

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** The vector of one text input. */
export function fakeVector(text: string, dimensions = FAKE_EMBEDDING_DIMENSIONS): number[] {
  return Array.from({ length: dimensions }, (_, i) => ((fnv1a(`${i}:${text}`) % 512) - 256) / 256);
}

/** A token-array input is embedded as the text of its numbers. */
export function fakeTokenVector(tokens: readonly number[], dimensions = FAKE_EMBEDDING_DIMENSIONS): number[] {
  return fakeVector(tokens.join(' '), dimensions);
}

/** Input tokens the fake counts: words of each text (at least one per input). */
export function fakeEmbeddingTokens(texts: readonly string[]): number {
  return texts.reduce((sum, text) => sum + Math.max(1, countWords([text])), 0);
}

/** OpenAI's `encoding_format: "base64"`: the float32 little-endian bytes, base64. */
export function float32Base64(vector: readonly number[]): string {
  return Buffer.from(new Float32Array(vector).buffer).toString('base64');
}
