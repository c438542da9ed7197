/**
 * Azure OpenAI speaks Chat Completions, Responses and Embeddings with Azure's URL and auth;
 * bodies, responses and streams are OpenAI's (the stream's extra filter-result chunk is handled
 * there). Translated requests go to Chat Completions, which every deployment and api-version
 * serves; a route whose deployment has the Responses API (and so keeps reasoning between
 * turns) sets `config.api: 'responses'`.
 */
import type { ProviderAdapter } from '../../canonical/ports';
import { createOpenAiCompatibleAdapter } from '../openai/adapter';
import { azureOpenAiApi, azureOpenAiEmbeddingsApi, azureOpenAiResponsesApi } from './api';

/**
 * `max_tokens` by default: older api-versions know only that name. Reasoning-model
 * deployments reject it; their routes set `config.max_tokens_field: 'max_completion_tokens'`.
 */
export const azureOpenAiAdapter: ProviderAdapter = createOpenAiCompatibleAdapter({
  type: 'azure_openai',
  api: azureOpenAiApi,
  embeddingsApi: azureOpenAiEmbeddingsApi,
  maxTokensField: 'max_tokens',
  sendModel: false,
  responsesApi: azureOpenAiResponsesApi,
  defaultApi: 'chat_completions',
});
