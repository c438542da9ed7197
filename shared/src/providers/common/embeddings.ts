/**
 * What every vendor's embeddings mapping needs: the inputs as texts, the cap on inputs per
 * call, one strict way to say an answer did not hold one vector per input, and the whole
 * adapter for text-only vendors whose answers each carry some of the vectors.
 */
import {
  type EmbeddingRequest,
  type EmbeddingsAdapter,
  type EmbeddingVector,
  embeddingInputCount,
  type VendorAnswer,
} from '../../canonical/embeddings';
import type { UpstreamCall, UpstreamTarget } from '../../canonical/ports';
import { AppError } from '../../http/app-error';

/** The 502 for an answer that does not hold what it should (the gateway never guesses vectors). */
export function malformedEmbeddings(vendor: string, missing: string): AppError {
  return new AppError(502, `Upstream ${vendor} answered embeddings without ${missing}`);
}

/**
 * The texts of a text-only vendor. `accepts()` already refuses token arrays there, so this
 * only fires when a caller skipped it.
 */
function textInputs(request: EmbeddingRequest, vendor: string): string[] {
  if (request.input.kind === 'text') return request.input.texts;
  throw new AppError(400, `${vendor} embeddings take text input only, not token arrays`);
}

/** A float vector: a non-empty array of finite numbers, else undefined. */
export function floatVector(value: unknown): number[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const numbers: number[] = [];
  for (const item of value) {
    if (typeof item !== 'number' || !Number.isFinite(item)) return undefined;
    numbers.push(item);
  }
  return numbers;
}

/** Runs of at most `size` items, in order (vendors cap the inputs one call may carry). */
export function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let at = 0; at < items.length; at += size) out.push(items.slice(at, at + size));
  return out;
}

/** Raw vectors read from the answers, checked to be floats and exactly one per input. */
function oneFloatVectorPerInput(
  raw: readonly unknown[],
  request: EmbeddingRequest,
  vendor: string,
): EmbeddingVector[] {
  if (raw.length !== embeddingInputCount(request.input))
    throw malformedEmbeddings(vendor, 'one vector per input');
  return raw.map((value) => {
    const vector = floatVector(value);
    if (!vector) throw malformedEmbeddings(vendor, 'a numeric vector for every input');
    return vector;
  });
}

/** The total of per-answer token counts, or null as soon as one answer did not say. */
function sumOrNull(counts: ReadonlyArray<number | null>): number | null {
  let total = 0;
  for (const count of counts) {
    if (count === null) return null;
    total += count;
  }
  return total;
}

/** What one vendor answer held: its raw vectors (checked by the caller) and input tokens. */
export interface AnswerContent {
  vectors: unknown[];
  inputTokens: number | null;
}

export interface TextEmbeddingsVendor {
  /** Names the vendor in errors. */
  vendor: string;
  /** The calls for these texts; how many texts one call carries is the vendor's own limit. */
  callsFor(texts: string[], request: EmbeddingRequest, target: UpstreamTarget): Promise<UpstreamCall[]>;
  /** Throws `malformedEmbeddings` when the answer has no recognisable shape. */
  readAnswer(answer: VendorAnswer): AnswerContent;
}

/**
 * The adapter for a vendor that embeds text only and answers each call with the vectors of
 * its texts, in order: the vectors of all answers joined, one per input, tokens summed.
 */
export function createTextEmbeddings(vendor: TextEmbeddingsVendor): EmbeddingsAdapter {
  return {
    accepts: (request) => request.input.kind === 'text',
    async buildCalls(request, target) {
      return vendor.callsFor(textInputs(request, vendor.vendor), request, target);
    },
    parseAnswers(answers, request) {
      if (answers.length === 0) throw malformedEmbeddings(vendor.vendor, 'an answer');
      const contents = answers.map((answer) => vendor.readAnswer(answer));
      const raw = contents.flatMap((content) => content.vectors);
      return {
        vectors: oneFloatVectorPerInput(raw, request, vendor.vendor),
        inputTokens: sumOrNull(contents.map((content) => content.inputTokens)),
      };
    },
  };
}
