/**
 * Embeddings, as the gateway sees them whatever the vendor: a list of inputs in, one vector per
 * input out (in input order), and the input tokens the vendor counted. Public shape: OpenAI's
 * `POST /v1/embeddings` (wire/openai-embeddings); vendor mappings: providers/<type>/embeddings.
 */
import type { UpstreamCall, UpstreamTarget } from './ports';

export type EmbeddingInput = { kind: 'text'; texts: string[] } | { kind: 'tokens'; tokens: number[][] };

/** How many vectors an answer must hold: one per input. */
export function embeddingInputCount(input: EmbeddingInput): number {
  return input.kind === 'text' ? input.texts.length : input.tokens.length;
}

export interface EmbeddingRequest {
  /** The model name the client sent. */
  model: string;
  input: EmbeddingInput;
  /** Output size the client asked for (vendors that can shorten their vectors). */
  dimensions?: number;
  encodingFormat: 'float' | 'base64';
  /** The client's end-user id, passed on where the vendor takes one. */
  user?: string;
}

/** One vector: floats, or OpenAI's base64 of little-endian float32 when the vendor sent that. */
export type EmbeddingVector = number[] | string;

export interface EmbeddingResult {
  vectors: EmbeddingVector[];
  /** Null when the vendor does not say; the gateway then estimates (proxy/estimate-tokens.ts). */
  inputTokens: number | null;
}

/** One vendor answer: its parsed JSON body and its headers (Bedrock counts tokens in a header). */
export interface VendorAnswer {
  body: unknown;
  headers: Headers;
}

/**
 * A vendor's embeddings API. Some take one input per call (Bedrock's Titan): `buildCalls`
 * then gives one call per input, made together, and `parseAnswers` gets their answers in the
 * same order.
 */
export interface EmbeddingsAdapter {
  /** False when this vendor cannot embed the request (token arrays where it takes text only). */
  accepts(request: EmbeddingRequest): boolean;
  buildCalls(request: EmbeddingRequest, target: UpstreamTarget): Promise<UpstreamCall[]>;
  /** Throws AppError 502 when an answer does not hold what it should. */
  parseAnswers(answers: VendorAnswer[], request: EmbeddingRequest): EmbeddingResult;
}
