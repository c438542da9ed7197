import { describe, expect, it } from 'vitest';
import type { EmbeddingRequest } from '../../canonical/embeddings';
import { renderEmbeddings } from './response';

const request = (encodingFormat: 'float' | 'base64'): EmbeddingRequest => ({
  model: 'house-embed',
  input: { kind: 'text', texts: ['a', 'b'] },
  encodingFormat,
});

/** What the openai SDK does with a base64 embedding: float32, little-endian. */
const decode = (base64: string): number[] =>
  Array.from(new Float32Array(Uint8Array.from(Buffer.from(base64, 'base64')).buffer));

describe('the embeddings answer', () => {
  it("is OpenAI's list under the client's model name, with the input tokens as usage", () => {
    expect(
      renderEmbeddings(
        [
          [0.5, -0.25],
          [1, 0],
        ],
        request('float'),
        7,
      ),
    ).toEqual({
      object: 'list',
      data: [
        { object: 'embedding', index: 0, embedding: [0.5, -0.25] },
        { object: 'embedding', index: 1, embedding: [1, 0] },
      ],
      model: 'house-embed',
      usage: { prompt_tokens: 7, total_tokens: 7 },
    });
  });

  it('encodes float vectors as base64 float32 when asked, and passes base64 ones on', () => {
    const vector = [0.5, -0.25, 0.125, 3];
    const rendered = renderEmbeddings([vector, 'AAAAPw=='], request('base64'), 2);
    const [first, second] = rendered.data;
    expect(decode(first?.embedding as string)).toEqual(vector);
    expect(second?.embedding).toBe('AAAAPw==');
  });

  it('decodes a base64 vector when floats were asked for', () => {
    const base64 = Buffer.from(new Float32Array([0.75, -2]).buffer).toString('base64');
    expect(
      renderEmbeddings([base64], { ...request('float'), input: { kind: 'text', texts: ['a'] } }, 1).data[0]
        ?.embedding,
    ).toEqual([0.75, -2]);
  });

  it('encodes long vectors (more bytes than one fromCharCode call takes)', () => {
    const vector = Array.from({ length: 20_000 }, (_, i) => (i % 256) / 256);
    const [item] = renderEmbeddings([vector], request('base64'), 1).data;
    expect(decode(item?.embedding as string)).toEqual(vector);
  });
});
