/**
 * What every vendor's embeddings mapping needs: the inputs as texts, the cap on inputs per
 * call, and one strict way to say an answer did not hold one vector per input.
 */
import { type EmbeddingRequest, type EmbeddingVector, embeddingInputCount } from '../../canonical/embeddings';
import { AppError } from '../../http/app-error';

/** The 502 for an answer that does not hold what it should (the gateway never guesses vectors). */
export function malformedEmbeddings(vendor: string, missing: string): AppError {
  return new AppError(502, `Upstream ${vendor} answered embeddings without ${missing}`);
}

/**
 * The texts of a text-only vendor. `accepts()` already refuses token arrays there, so this
 * only fires when a caller skipped it.
 */
export function textInputs(request: EmbeddingRequest, vendor: string): string[] {
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
export function oneFloatVectorPerInput(
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
export function sumOrNull(counts: ReadonlyArray<number | null>): number | null {
  let total = 0;
  for (const count of counts) {
    if (count === null) return null;
    total += count;
  }
  return total;
}
