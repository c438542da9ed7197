import { describe, expect, it } from 'vitest';
import { embeddingInputCount } from '../../canonical/embeddings';
import { AppError } from '../../http/app-error';
import { MAX_EMBEDDING_INPUTS, parseEmbeddingRequest } from './request';

const refusal = (body: unknown): AppError => {
  try {
    parseEmbeddingRequest(body);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('accepted');
};

describe('POST /v1/embeddings body', () => {
  it('takes each of the four input shapes, normalised to texts or token arrays', () => {
    expect(parseEmbeddingRequest({ model: 'e', input: 'hello' }).input).toEqual({
      kind: 'text',
      texts: ['hello'],
    });
    expect(parseEmbeddingRequest({ model: 'e', input: ['a', 'b'] }).input).toEqual({
      kind: 'text',
      texts: ['a', 'b'],
    });
    expect(parseEmbeddingRequest({ model: 'e', input: [1, 2, 3] }).input).toEqual({
      kind: 'tokens',
      tokens: [[1, 2, 3]],
    });
    const nested = parseEmbeddingRequest({ model: 'e', input: [[1], [2, 3]] });
    expect(nested.input).toEqual({ kind: 'tokens', tokens: [[1], [2, 3]] });
    expect(embeddingInputCount(nested.input)).toBe(2);
  });

  it('reads dimensions, encoding_format (float by default) and user', () => {
    expect(parseEmbeddingRequest({ model: 'e', input: 'x' })).toEqual({
      model: 'e',
      input: { kind: 'text', texts: ['x'] },
      encodingFormat: 'float',
    });
    expect(
      parseEmbeddingRequest({
        model: 'e',
        input: 'x',
        dimensions: 256,
        encoding_format: 'base64',
        user: 'u-1',
      }),
    ).toEqual({
      model: 'e',
      input: { kind: 'text', texts: ['x'] },
      dimensions: 256,
      encodingFormat: 'base64',
      user: 'u-1',
    });
  });

  it('refuses with a 400 that names the field: no model, empty or mixed input, bad options', () => {
    const cases: Array<[unknown, string]> = [
      [{ input: 'x' }, 'model'],
      [{ model: 'e' }, 'input'],
      [{ model: 'e', input: '' }, 'input'],
      [{ model: 'e', input: [] }, 'input'],
      [{ model: 'e', input: ['a', 2] }, 'input'],
      [{ model: 'e', input: [1.5] }, 'input'],
      [{ model: 'e', input: 'x', dimensions: 0 }, 'dimensions'],
      [{ model: 'e', input: 'x', encoding_format: 'int8' }, 'encoding_format'],
      [{ model: 'e', input: Array.from({ length: MAX_EMBEDDING_INPUTS + 1 }, () => 'x') }, 'input'],
    ];
    for (const [body, field] of cases) {
      const error = refusal(body);
      expect(error.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(error.message).toContain(field);
    }
    expect(refusal([1, 2]).status).toBe(400);
  });
});
