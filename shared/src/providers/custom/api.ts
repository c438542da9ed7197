/**
 * Any OpenAI-compatible server (vLLM, Ollama, LM Studio, hosted clones): Chat Completions,
 * Responses (for routes that say the server has it) and Embeddings under the configured base
 * URL. Local servers often need no key, so an empty key sends no Authorization header rather
 * than a meaningless `Bearer `.
 */
import type { UpstreamTarget } from '../../canonical/ports';
import { trimTrailingSlashes } from '../common/json';
import { type ChatApi, openAiProtocolHeaders } from '../openai/api';

function customApiFor(path: string): ChatApi {
  return {
    url: (target: UpstreamTarget) => `${trimTrailingSlashes(target.baseUrl)}${path}`,
    headers: (target: UpstreamTarget) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (target.apiKey.trim() !== '') headers.authorization = `Bearer ${target.apiKey}`;
      return { ...headers, ...openAiProtocolHeaders(target) };
    },
  };
}

export const customApi: ChatApi = customApiFor('/chat/completions');

export const customResponsesApi: ChatApi = customApiFor('/responses');

export const customEmbeddingsApi: ChatApi = customApiFor('/embeddings');
