/**
 * Any OpenAI-compatible server (vLLM, Ollama, LM Studio, hosted clones): Chat Completions
 * and Embeddings under the configured base URL. Local servers often need no key, so an
 * empty key sends no Authorization header rather than a meaningless `Bearer `.
 */
import type { UpstreamTarget } from '../../canonical/ports';
import { trimTrailingSlashes } from '../common/json';
import type { ChatApi } from '../openai/api';

function customApiFor(path: string): ChatApi {
  return {
    url: (target: UpstreamTarget) => `${trimTrailingSlashes(target.baseUrl)}${path}`,
    headers: (target: UpstreamTarget) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (target.apiKey.trim() !== '') headers.authorization = `Bearer ${target.apiKey}`;
      return headers;
    },
  };
}

export const customApi: ChatApi = customApiFor('/chat/completions');

export const customEmbeddingsApi: ChatApi = customApiFor('/embeddings');
