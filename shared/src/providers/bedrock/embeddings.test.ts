import { describe, expect, it } from 'vitest';
import {
  expectMalformedEmbeddings,
  textEmbeddingRequest as texts,
  tokenEmbeddingRequest,
} from '../../../test/providers/common/test-fixtures';
import type { EmbeddingRequest, VendorAnswer } from '../../canonical/embeddings';
import type { UpstreamTarget } from '../../canonical/ports';
import { toHex } from '../../util/encoding';
import { bedrockAdapter } from './adapter';
import { embeddingFamilyOf } from './embeddings';

const target = (upstreamModel: string): UpstreamTarget => ({
  baseUrl: '',
  apiKey: 'AKIDEXAMPLE:wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  upstreamModel,
  config: { region: 'eu-west-1' },
});
const TITAN = 'amazon.titan-embed-text-v2:0';
const COHERE = 'cohere.embed-english-v3';
const embeddings = bedrockAdapter.embeddings;
const bodies = async (request: EmbeddingRequest, model: string) =>
  (await embeddings.buildCalls(request, target(model))).map((call) => JSON.parse(call.init.body));
const answer = (body: unknown, tokens?: number): VendorAnswer => ({
  body,
  headers: new Headers(tokens === undefined ? {} : { 'X-Amzn-Bedrock-Input-Token-Count': String(tokens) }),
});
const sha256 = async (text: string) =>
  toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))));

describe('bedrockAdapter.embeddings.buildCalls', () => {
  it('invokes the model (id kept in one segment), SigV4-signed for JSON', async () => {
    const [call, ...rest] = await embeddings.buildCalls(texts(['hello']), target(TITAN));
    expect(rest).toEqual([]);
    expect(call?.url).toBe(
      'https://bedrock-runtime.eu-west-1.amazonaws.com/model/amazon.titan-embed-text-v2%3A0/invoke',
    );
    expect(call?.init.method).toBe('POST');
    const headers = call?.init.headers ?? {};
    expect(headers.accept).toBe('application/json');
    expect(headers['content-type']).toBe('application/json');
    expect(headers['x-amz-content-sha256']).toBe(await sha256(call?.init.body ?? ''));
    expect(headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/bedrock\/aws4_request, SignedHeaders=accept;host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
    expect(JSON.stringify(call)).not.toContain('wJalr');
  });

  it('gives Titan one call per text, in order, with the size asked for', async () => {
    expect(await bodies(texts(['a', 'b', 'c']), TITAN)).toEqual([
      { inputText: 'a' },
      { inputText: 'b' },
      { inputText: 'c' },
    ]);
    expect(await bodies(texts(['a'], 256), TITAN)).toEqual([{ inputText: 'a', dimensions: 256 }]);
    expect(await bodies(texts(['a'], 384), 'amazon.titan-embed-image-v1')).toEqual([
      { inputText: 'a', embeddingConfig: { outputEmbeddingLength: 384 } },
    ]);
  });

  it('gives Cohere the texts in one call as documents, asking for floats', async () => {
    expect(await bodies(texts(['a', 'b']), COHERE)).toEqual([
      { texts: ['a', 'b'], input_type: 'search_document', embedding_types: ['float'] },
    ]);
    expect(await bodies(texts(['a'], 512), 'us.cohere.embed-v4:0')).toEqual([
      { texts: ['a'], input_type: 'search_document', embedding_types: ['float'], output_dimension: 512 },
    ]);
  });

  it('splits Cohere input into calls of at most 96 texts', async () => {
    const many = Array.from({ length: 200 }, (_, i) => `t${i}`);
    const calls = await bodies(texts(many), COHERE);
    expect(calls.map((body) => body.texts.length)).toEqual([96, 96, 8]);
    expect(calls.flatMap((body) => body.texts)).toEqual(many);
  });

  it('takes text only', () => {
    expect(embeddings.accepts(texts(['a']))).toBe(true);
    expect(embeddings.accepts(tokenEmbeddingRequest([[1]]))).toBe(false);
  });
});

describe('embeddingFamilyOf', () => {
  it('knows families inside ARNs and inference-profile ids, and treats unknown ids as Titan', () => {
    expect(embeddingFamilyOf('amazon.titan-embed-g1-text-02')).toBe('titan-text');
    expect(
      embeddingFamilyOf('arn:aws:bedrock:eu-west-1::foundation-model/cohere.embed-multilingual-v3'),
    ).toBe('cohere');
    expect(embeddingFamilyOf('eu.cohere.embed-v4:0')).toBe('cohere');
    expect(embeddingFamilyOf('amazon.titan-embed-image-v1')).toBe('titan-multimodal');
    expect(embeddingFamilyOf('arn:aws:bedrock:eu-west-1:123456789012:application-inference-profile/x1')).toBe(
      'titan-text',
    );
  });
});

describe('bedrockAdapter.embeddings.parseAnswers', () => {
  it('joins Titan answers in order and sums inputTextTokenCount', () => {
    const result = embeddings.parseAnswers(
      [
        answer({ embedding: [0.5, 1], inputTextTokenCount: 3 }, 3),
        answer({ embedding: [-0.5, 0], inputTextTokenCount: 4 }, 4),
      ],
      texts(['a', 'b']),
    );
    expect(result).toEqual({
      vectors: [
        [0.5, 1],
        [-0.5, 0],
      ],
      inputTokens: 7,
    });
    const headerOnly = embeddings.parseAnswers([answer({ embedding: [1] }, 6)], texts(['a']));
    expect(headerOnly.inputTokens).toBe(6);
  });

  it('reads Cohere vectors by type or as a list, tokens from the InvokeModel header', () => {
    const byType = {
      id: 'x',
      embeddings: { float: [[1], [2]] },
      texts: ['a', 'b'],
      response_type: 'embeddings_by_type',
    };
    const floats = { id: 'y', embeddings: [[3]], texts: ['c'], response_type: 'embeddings_floats' };
    expect(embeddings.parseAnswers([answer(byType, 5), answer(floats, 2)], texts(['a', 'b', 'c']))).toEqual({
      vectors: [[1], [2], [3]],
      inputTokens: 7,
    });
    expect(embeddings.parseAnswers([answer(floats)], texts(['c'])).inputTokens).toBeNull();
  });

  it.each([
    ['neither embedding nor embeddings', [answer({ id: 'x' })], ['a']],
    ['fewer Titan vectors than texts', [answer({ embedding: [1], inputTextTokenCount: 1 })], ['a', 'b']],
    ['Cohere vectors that are not numbers', [answer({ embeddings: { int8: [[1]] } })], ['a']],
    ['an empty Titan vector', [answer({ embedding: [], inputTextTokenCount: 1 })], ['a']],
    ['any answer at all', [], ['a']],
  ])('answers 502 for %s', (_, list, inputs) => {
    expectMalformedEmbeddings(() => embeddings.parseAnswers(list, texts(inputs)), 'bedrock');
  });
});
