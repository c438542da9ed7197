import { describe, expect, it } from 'vitest';
import {
  expectMalformedEmbeddings,
  textEmbeddingRequest,
} from '../../../test/providers/common/test-fixtures';
import type { EmbeddingRequest, VendorAnswer } from '../../canonical/embeddings';
import type { UpstreamTarget } from '../../canonical/ports';
import { openAiAdapter } from './adapter';

const KEY = 'sk-proj-TESTKEY0123456789';
const target = (overrides: Partial<UpstreamTarget> = {}): UpstreamTarget => ({
  baseUrl: 'https://api.openai.com/v1/',
  apiKey: KEY,
  upstreamModel: 'text-embedding-3-small',
  config: {},
  ...overrides,
});
const texts = (...list: string[]): EmbeddingRequest => textEmbeddingRequest(list);
const embeddings = openAiAdapter.embeddings!;
const answer = (body: unknown): VendorAnswer[] => [{ body, headers: new Headers() }];
const item = (index: number, embedding: number[] | string) => ({ object: 'embedding', index, embedding });

/** OpenAI's base64: the vector's float32 little-endian bytes. */
const base64Of = (vector: number[]) => Buffer.from(new Float32Array(vector).buffer).toString('base64');

describe('openAiAdapter.embeddings.buildCalls', () => {
  it('posts the texts to /embeddings with a Bearer key and the format the client asked for', async () => {
    const calls = await embeddings.buildCalls(texts('hello', 'world'), target());
    expect(calls).toEqual([
      {
        url: 'https://api.openai.com/v1/embeddings',
        init: {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
          body: JSON.stringify({
            model: 'text-embedding-3-small',
            input: ['hello', 'world'],
            encoding_format: 'float',
          }),
        },
      },
    ]);
  });

  it('passes token arrays, dimensions, user and base64 on, and defaults the base URL', async () => {
    const request: EmbeddingRequest = {
      model: 'embed',
      input: { kind: 'tokens', tokens: [[15339, 1917], [9906]] },
      dimensions: 256,
      encodingFormat: 'base64',
      user: 'user-42',
    };
    expect(embeddings.accepts(request)).toBe(true);
    const [call] = await embeddings.buildCalls(request, target({ baseUrl: '' }));
    expect(call?.url).toBe('https://api.openai.com/v1/embeddings');
    expect(JSON.parse(call?.init.body ?? '')).toEqual({
      model: 'text-embedding-3-small',
      input: [[15339, 1917], [9906]],
      encoding_format: 'base64',
      dimensions: 256,
      user: 'user-42',
    });
  });
});

describe('openAiAdapter.embeddings.parseAnswers', () => {
  it('orders the vectors by index and takes usage.prompt_tokens', () => {
    const body = {
      object: 'list',
      data: [item(1, [0.5, -0.25]), item(0, [0.125, 1])],
      model: 'text-embedding-3-small',
      usage: { prompt_tokens: 7, total_tokens: 7 },
    };
    expect(embeddings.parseAnswers(answer(body), texts('a', 'b'))).toEqual({
      vectors: [
        [0.125, 1],
        [0.5, -0.25],
      ],
      inputTokens: 7,
    });
  });

  it('passes base64 vectors on as they came, and says null when usage is missing', () => {
    const request: EmbeddingRequest = { ...texts('a'), encodingFormat: 'base64' };
    const vector = base64Of([0.5, -0.25]);
    expect(embeddings.parseAnswers(answer({ data: [item(0, vector)] }), request)).toEqual({
      vectors: [vector],
      inputTokens: null,
    });
  });

  it('decodes base64 sent to a float request (a server that ignored encoding_format)', () => {
    const body = { data: [item(0, base64Of([0.5, -0.25, 3]))], usage: { prompt_tokens: 1 } };
    expect(embeddings.parseAnswers(answer(body), texts('a')).vectors).toEqual([[0.5, -0.25, 3]]);
  });

  it.each([
    ['no data', { object: 'list', usage: { prompt_tokens: 1 } }],
    ['too few vectors', { data: [item(0, [1])] }],
    ['a repeated index', { data: [item(0, [1]), item(0, [2])] }],
    ['an index out of range', { data: [item(0, [1]), item(2, [2])] }],
    ['a vector that is not numbers', { data: [item(0, [1]), item(1, ['x' as unknown as number])] }],
    ['an empty vector', { data: [item(0, [1]), item(1, [])] }],
  ])('answers 502 for %s', (_, body) => {
    expectMalformedEmbeddings(() => embeddings.parseAnswers(answer(body), texts('a', 'b')), 'openai');
  });
});
