/**
 * Azure OpenAI: the deployment in the path picks the model, `api-version` is mandatory,
 * and the key goes in `api-key` (not Authorization). The Responses API lives apart, in
 * Azure's OpenAI-compatible v1 API, where the deployment is the body's `model`.
 */
import type { UpstreamTarget } from '../../canonical/ports';
import { asRecord, asString, trimTrailingSlashes } from '../common/json';
import { type ChatApi, openAiProtocolHeaders, type ResponsesApi } from '../openai/api';

export const AZURE_DEFAULT_API_VERSION = '2024-10-21';

/** Resource endpoints are pasted with or without the `/openai` suffix. */
function resourceUrl(baseUrl: string): string {
  return trimTrailingSlashes(baseUrl).replace(/\/openai$/, '');
}

/**
 * Deployment names are chosen by the Azure admin, not the model vendor: a per-model map
 * (`config.deployments`), one fixed `config.deployment`, or else the model name itself.
 */
export function deploymentFor(target: UpstreamTarget): string {
  const mapped = asString(asRecord(target.config.deployments)?.[target.upstreamModel]);
  return mapped || asString(target.config.deployment) || target.upstreamModel;
}

function azureHeaders(target: UpstreamTarget): Record<string, string> {
  return { 'content-type': 'application/json', 'api-key': target.apiKey, ...openAiProtocolHeaders(target) };
}

/** One operation of a deployment: `{resource}/openai/deployments/{deployment}/{operation}`. */
function azureApiFor(operation: string): ChatApi {
  return {
    url: (target: UpstreamTarget) => {
      const deployment = deploymentFor(target);
      const apiVersion = asString(target.config.api_version) || AZURE_DEFAULT_API_VERSION;
      return `${resourceUrl(target.baseUrl)}/openai/deployments/${encodeURIComponent(deployment)}/${operation}?api-version=${encodeURIComponent(apiVersion)}`;
    },
    headers: azureHeaders,
  };
}

export const azureOpenAiApi: ChatApi = azureApiFor('chat/completions');

/** Embeddings deployments are chosen exactly as chat ones (deployments map, deployment, model). */
export const azureOpenAiEmbeddingsApi: ChatApi = azureApiFor('embeddings');

/**
 * `{resource}/openai/v1/responses`: the v1 API takes no api-version (the route's `api_version`
 * belongs to the deployment-path APIs) and is chosen per route with `config.api: 'responses'`.
 */
export const azureOpenAiResponsesApi: ResponsesApi = {
  url: (target: UpstreamTarget) => `${resourceUrl(target.baseUrl)}/openai/v1/responses`,
  headers: azureHeaders,
  model: deploymentFor,
};
