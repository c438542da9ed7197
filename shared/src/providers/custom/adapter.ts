/**
 * Custom providers: the OpenAI adapter with a bring-your-own endpoint. Translated requests go
 * to Chat Completions, which every compatible server has; a route whose server also has the
 * Responses API sets `config.api: 'responses'`.
 */
import type { ProviderAdapter } from '../../canonical/ports';
import { createOpenAiCompatibleAdapter } from '../openai/adapter';
import { customApi, customEmbeddingsApi, customResponsesApi } from './api';

/**
 * `max_tokens` by default: it is the name every OpenAI-compatible server knows; a route can
 * switch to `max_completion_tokens` with `config.max_tokens_field`.
 */
export const customAdapter: ProviderAdapter = createOpenAiCompatibleAdapter({
  type: 'custom',
  api: customApi,
  embeddingsApi: customEmbeddingsApi,
  maxTokensField: 'max_tokens',
  sendModel: true,
  responsesApi: customResponsesApi,
  defaultApi: 'chat_completions',
});
