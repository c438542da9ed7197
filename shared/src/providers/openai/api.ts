/**
 * Where and as whom to call OpenAI's Chat Completions (and Embeddings) API. Azure and custom
 * servers supply their own `ChatApi` values and reuse everything else in this folder.
 */
import type { UpstreamTarget } from '../../canonical/ports';
import { trimTrailingSlashes } from '../common/json';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

export interface ChatApi {
  url(target: UpstreamTarget): string;
  headers(target: UpstreamTarget): Record<string, string>;
}

const bearerJson = (target: UpstreamTarget): Record<string, string> => ({
  'content-type': 'application/json',
  authorization: `Bearer ${target.apiKey}`,
});

const openAiUrl = (target: UpstreamTarget, path: string): string =>
  `${trimTrailingSlashes(target.baseUrl || OPENAI_DEFAULT_BASE_URL)}${path}`;

export const openAiApi: ChatApi = {
  url: (target) => openAiUrl(target, '/chat/completions'),
  headers: bearerJson,
};

/** The Responses API, for /v1/responses requests passed through to OpenAI unchanged. */
export const openAiResponsesApi: ChatApi = {
  url: (target) => openAiUrl(target, '/responses'),
  headers: bearerJson,
};

/** The Embeddings API, same host and auth as chat. */
export const openAiEmbeddingsApi: ChatApi = {
  url: (target) => openAiUrl(target, '/embeddings'),
  headers: bearerJson,
};
