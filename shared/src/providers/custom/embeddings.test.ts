import { describe, expect, it } from 'vitest';
import type { EmbeddingRequest } from '../../canonical/embeddings';
import type { UpstreamTarget } from '../../canonical/ports';
import { customAdapter } from './adapter';

const target = (apiKey: string): UpstreamTarget => ({
  baseUrl: 'http://localhost:11434/v1/',
  apiKey,
  upstreamModel: 'nomic-embed-text',
  config: {},
});
const request: EmbeddingRequest = {
  model: 'embed',
  input: { kind: 'text', texts: ['hello'] },
  encodingFormat: 'float',
  user: 'u-1',
};
const embeddings = customAdapter.embeddings!;

describe('customAdapter.embeddings', () => {
  it('posts OpenAI Embeddings under the base URL with the model and a Bearer key', async () => {
    const calls = await embeddings.buildCalls(request, target('secret-token'));
    expect(calls).toEqual([
      {
        url: 'http://localhost:11434/v1/embeddings',
        init: {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer secret-token' },
          body: JSON.stringify({
            model: 'nomic-embed-text',
            input: ['hello'],
            encoding_format: 'float',
            user: 'u-1',
          }),
        },
      },
    ]);
  });

  it('sends no Authorization header without a key', async () => {
    const [call] = await embeddings.buildCalls(request, target(' '));
    expect(call?.init.headers).toEqual({ 'content-type': 'application/json' });
  });

  it('names the vendor when an answer is malformed', () => {
    expect(() => embeddings.parseAnswers([{ body: {}, headers: new Headers() }], request)).toThrow(
      /^Upstream custom answered embeddings without one vector per input$/,
    );
  });
});
