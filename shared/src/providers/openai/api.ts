/**
 * Where and as whom to call OpenAI's Chat Completions, Responses and Embeddings APIs. Azure and
 * custom servers supply their own `ChatApi` values and reuse everything else in this folder.
 */
import type { UpstreamTarget } from '../../canonical/ports';
import { trimTrailingSlashes } from '../common/json';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

export interface ChatApi {
  url(target: UpstreamTarget): string;
  headers(target: UpstreamTarget): Record<string, string>;
}

/** Where a vendor serves the Responses API. */
export interface ResponsesApi extends ChatApi {
  /** The `model` the body names; absent: the route's upstream model. */
  model?(target: UpstreamTarget): string;
}

/**
 * The client's OpenAI protocol headers that go upstream with it: `openai-beta` turns on the
 * preview features its body uses. Nothing else of the client's (never its authorization,
 * organization or project: the route's credential decides who is calling).
 */
export function openAiProtocolHeaders(target: UpstreamTarget): Record<string, string> {
  const beta = target.clientHeaders?.get('openai-beta');
  return beta ? { 'openai-beta': beta } : {};
}

const bearerJson = (target: UpstreamTarget): Record<string, string> => ({
  'content-type': 'application/json',
  authorization: `Bearer ${target.apiKey}`,
  ...openAiProtocolHeaders(target),
});

const openAiUrl = (target: UpstreamTarget, path: string): string =>
  `${trimTrailingSlashes(target.baseUrl || OPENAI_DEFAULT_BASE_URL)}${path}`;

export const openAiApi: ChatApi = {
  url: (target) => openAiUrl(target, '/chat/completions'),
  headers: bearerJson,
};

/** The Responses API: translated requests by default, and /v1/responses bodies passed through. */
export const openAiResponsesApi: ResponsesApi = {
  url: (target) => openAiUrl(target, '/responses'),
  headers: bearerJson,
};

/** The Embeddings API, same host and auth as chat. */
export const openAiEmbeddingsApi: ChatApi = {
  url: (target) => openAiUrl(target, '/embeddings'),
  headers: bearerJson,
};
