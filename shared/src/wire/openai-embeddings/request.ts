/**
 * The client's `POST /v1/embeddings` body, OpenAI's shape: `input` a string, an array of
 * strings, an array of token ids or an array of those; `model`; optional `dimensions`,
 * `encoding_format` (float or base64; the official SDK asks for base64 unless told otherwise)
 * and `user`. Validated here, at the boundary; every vendor mapping gets the normalised form.
 */
import * as z from 'zod';
import type { EmbeddingInput, EmbeddingRequest } from '../../canonical/embeddings';
import { parseBody } from '../common/validate';

/** OpenAI's own limit on inputs per request. */
export const MAX_EMBEDDING_INPUTS = 2048;

const text = z.string().min(1, 'must not be empty');
const tokens = z.array(z.number().int().nonnegative()).min(1, 'must not be empty');

const embeddingBody = z.looseObject({
  model: z.string().min(1),
  input: z.union([
    text,
    z.array(text).min(1, 'must not be empty').max(MAX_EMBEDDING_INPUTS),
    tokens,
    z.array(tokens).min(1, 'must not be empty').max(MAX_EMBEDDING_INPUTS),
  ]),
  dimensions: z.number().int().positive().max(65_536).optional(),
  encoding_format: z.enum(['float', 'base64']).optional(),
  user: z.string().max(512).optional(),
});

type EmbeddingBody = z.output<typeof embeddingBody>;

function normaliseInput(input: EmbeddingBody['input']): EmbeddingInput {
  if (typeof input === 'string') return { kind: 'text', texts: [input] };
  const [first] = input;
  if (typeof first === 'string') return { kind: 'text', texts: input as string[] };
  if (typeof first === 'number') return { kind: 'tokens', tokens: [input as number[]] };
  return { kind: 'tokens', tokens: input as number[][] };
}

/** Throws the OpenAI-envelope 400 that names the first bad field. */
export function parseEmbeddingRequest(body: unknown): EmbeddingRequest {
  const parsed = parseBody(embeddingBody, body);
  return {
    model: parsed.model,
    input: normaliseInput(parsed.input),
    ...(parsed.dimensions !== undefined && { dimensions: parsed.dimensions }),
    encodingFormat: parsed.encoding_format ?? 'float',
    ...(parsed.user !== undefined && { user: parsed.user }),
  };
}
