import { describe, expect, it } from 'vitest';
import {
  vendorAnswers as answers,
  expectMalformedEmbeddings,
  textEmbeddingRequest as texts,
  tokenEmbeddingRequest,
} from '../../../test/providers/common/test-fixtures';
import type { UpstreamTarget } from '../../canonical/ports';
import { googleAdapter } from './adapter';
import { GEMINI_EMBED_BATCH_LIMIT } from './embeddings';

const target: UpstreamTarget = {
  baseUrl: 'https://generativelanguage.googleapis.com/',
  apiKey: 'AIzaSyTESTKEY',
  upstreamModel: 'gemini-embedding-001',
  config: {},
};
const embeddings = googleAdapter.embeddings;
const content = (text: string) => ({ parts: [{ text }] });

describe('googleAdapter.embeddings.buildCalls', () => {
  it('embeds one text with :embedContent, the key in x-goog-api-key only', async () => {
    const calls = await embeddings.buildCalls(texts(['hello']), target);
    expect(calls).toEqual([
      {
        url: 'https://generativelanguage.googleapis.com/v1beta/models/gemini-embedding-001:embedContent',
        init: {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-goog-api-key': 'AIzaSyTESTKEY' },
          body: JSON.stringify({ content: content('hello') }),
        },
      },
    ]);
    expect(calls[0]?.url).not.toContain('AIza');
  });

  it('embeds several texts with :batchEmbedContents, each request naming the model and size', async () => {
    const versioned = {
      ...target,
      baseUrl: 'https://proxy.internal/v1',
      upstreamModel: 'models/text-embedding-004',
    };
    const [call, ...rest] = await embeddings.buildCalls(texts(['a', 'b'], 256), versioned);
    expect(rest).toEqual([]);
    expect(call?.url).toBe('https://proxy.internal/v1/models/text-embedding-004:batchEmbedContents');
    expect(JSON.parse(call?.init.body ?? '')).toEqual({
      requests: [
        { model: 'models/text-embedding-004', content: content('a'), outputDimensionality: 256 },
        { model: 'models/text-embedding-004', content: content('b'), outputDimensionality: 256 },
      ],
    });
  });

  it('passes the size on a single text too, and splits batches at the API limit', async () => {
    const [single] = await embeddings.buildCalls(texts(['a'], 768), target);
    expect(JSON.parse(single?.init.body ?? '')).toEqual({ content: content('a'), outputDimensionality: 768 });
    const many = Array.from({ length: GEMINI_EMBED_BATCH_LIMIT + 1 }, (_, i) => `text ${i}`);
    const calls = await embeddings.buildCalls(texts(many), target);
    const sizes = calls.map((call) => JSON.parse(call.init.body).requests.length);
    expect(sizes).toEqual([GEMINI_EMBED_BATCH_LIMIT, 1]);
    expect(JSON.parse(calls[1]?.init.body ?? '').requests[0].content).toEqual(content('text 100'));
  });

  it('takes text only', () => {
    expect(embeddings.accepts(texts(['a']))).toBe(true);
    expect(embeddings.accepts(tokenEmbeddingRequest([[1]]))).toBe(false);
  });
});

describe('googleAdapter.embeddings.parseAnswers', () => {
  it('reads embedContent and batchEmbedContents answers, in order, without a token count', () => {
    expect(embeddings.parseAnswers(answers({ embedding: { values: [0.5, -1] } }), texts(['a']))).toEqual({
      vectors: [[0.5, -1]],
      inputTokens: null,
    });
    const batch = answers(
      { embeddings: [{ values: [1] }, { values: [2] }] },
      { embeddings: [{ values: [3] }] },
    );
    expect(embeddings.parseAnswers(batch, texts(['a', 'b', 'c']))).toEqual({
      vectors: [[1], [2], [3]],
      inputTokens: null,
    });
  });

  it('counts tokens when every answer has usageMetadata (Vertex-style)', () => {
    const withUsage = (values: number[], tokens: number) => ({
      embeddings: [{ values }],
      usageMetadata: { promptTokenCount: tokens },
    });
    const result = embeddings.parseAnswers(answers(withUsage([1], 4), withUsage([2], 5)), texts(['a', 'b']));
    expect(result.inputTokens).toBe(9);
    const partly = answers(withUsage([1], 4), { embeddings: [{ values: [2] }] });
    expect(embeddings.parseAnswers(partly, texts(['a', 'b'])).inputTokens).toBeNull();
  });

  it.each([
    ['no embedding', {}, ['a']],
    ['values that are not numbers', { embedding: { values: ['x'] } }, ['a']],
    ['fewer vectors than texts', { embeddings: [{ values: [1] }] }, ['a', 'b']],
  ])('answers 502 for %s', (_, body, list) => {
    expectMalformedEmbeddings(() => embeddings.parseAnswers(answers(body), texts(list)), 'google');
  });
});
