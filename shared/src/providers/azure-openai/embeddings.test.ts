import { describe, expect, it } from 'vitest';
import type { EmbeddingRequest } from '../../canonical/embeddings';
import type { UpstreamTarget } from '../../canonical/ports';
import { azureOpenAiAdapter } from './adapter';

const KEY = '0123456789abcdef0123456789abcdef';
const target = (overrides: Partial<UpstreamTarget> = {}): UpstreamTarget => ({
  baseUrl: 'https://contoso.openai.azure.com',
  apiKey: KEY,
  upstreamModel: 'text-embedding-3-large',
  config: {},
  ...overrides,
});
const request: EmbeddingRequest = {
  model: 'embed',
  input: { kind: 'text', texts: ['hello', 'world'] },
  dimensions: 512,
  encodingFormat: 'base64',
};
const embeddings = azureOpenAiAdapter.embeddings!;

describe('azureOpenAiAdapter.embeddings', () => {
  it('posts to the deployment with the key in api-key only and no model in the body', async () => {
    const calls = await embeddings.buildCalls(request, target());
    expect(calls).toEqual([
      {
        url: 'https://contoso.openai.azure.com/openai/deployments/text-embedding-3-large/embeddings?api-version=2024-10-21',
        init: {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'api-key': KEY },
          body: JSON.stringify({ input: ['hello', 'world'], encoding_format: 'base64', dimensions: 512 }),
        },
      },
    ]);
  });

  it('picks the deployment as chat does (map, then fixed deployment) and the configured api-version', async () => {
    const mapped = await embeddings.buildCalls(
      request,
      target({
        baseUrl: 'https://contoso.openai.azure.com/openai/',
        config: { deployments: { 'text-embedding-3-large': 'emb large' }, api_version: '2024-06-01' },
      }),
    );
    expect(mapped[0]?.url).toBe(
      'https://contoso.openai.azure.com/openai/deployments/emb%20large/embeddings?api-version=2024-06-01',
    );
    const fixed = await embeddings.buildCalls(request, target({ config: { deployment: 'emb-prod' } }));
    expect(fixed[0]?.url).toContain('/openai/deployments/emb-prod/embeddings?');
  });

  it('takes token arrays and reads an OpenAI-shaped answer', async () => {
    const tokens: EmbeddingRequest = {
      model: 'e',
      input: { kind: 'tokens', tokens: [[1, 2]] },
      encodingFormat: 'float',
    };
    expect(embeddings.accepts(tokens)).toBe(true);
    const [call] = await embeddings.buildCalls(tokens, target());
    expect(JSON.parse(call?.init.body ?? '')).toEqual({ input: [[1, 2]], encoding_format: 'float' });
    const body = {
      object: 'list',
      data: [{ object: 'embedding', index: 0, embedding: [0.25, 0.5] }],
      model: 'text-embedding-3-large',
      usage: { prompt_tokens: 2, total_tokens: 2 },
    };
    expect(embeddings.parseAnswers([{ body, headers: new Headers() }], tokens)).toEqual({
      vectors: [[0.25, 0.5]],
      inputTokens: 2,
    });
    expect(() => embeddings.parseAnswers([{ body: { data: [] }, headers: new Headers() }], tokens)).toThrow(
      /^Upstream azure_openai answered embeddings without one vector per input$/,
    );
  });
});
