/**
 * Where and as whom to call OpenAI's Chat Completions API. Azure and custom servers
 * supply their own `ChatApi` and reuse everything else in this folder.
 */
import type { UpstreamTarget } from '../../canonical/ports';
import { trimTrailingSlashes } from '../common/openai-anthropic-json';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

export interface ChatApi {
  url(target: UpstreamTarget): string;
  headers(target: UpstreamTarget): Record<string, string>;
}

export const openAiApi: ChatApi = {
  url: (target) => `${trimTrailingSlashes(target.baseUrl || OPENAI_DEFAULT_BASE_URL)}/chat/completions`,
  headers: (target) => ({
    'content-type': 'application/json',
    authorization: `Bearer ${target.apiKey}`,
  }),
};
