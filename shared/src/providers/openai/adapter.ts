/**
 * The OpenAI-family adapter: Chat Completions and the Responses API, parameterised so Azure and
 * custom OpenAI-compatible servers compose it with their own endpoints and defaults instead of
 * copying it. A route picks the API for translated requests with `config.api`.
 */
import type { NativeCallBuilder, ProviderAdapter, UpstreamCall, UpstreamTarget } from '../../canonical/ports';
import type { CanonicalRequest } from '../../canonical/types';
import { postJson } from '../common/json';
import { createSseStreamDecoder } from '../common/sse-stream';
import { type ChatApi, openAiApi, openAiEmbeddingsApi, openAiResponsesApi, type ResponsesApi } from './api';
import {
  apiFor,
  type OpenAiApiName,
  OpenAiFamilyStreamMapper,
  parseOpenAiFamilyResponse,
} from './api-choice';
import { createOpenAiEmbeddings } from './embeddings';
import { mapOpenAiError } from './errors';
import { forModel } from './reasoning-models';
import { toOpenAiBody } from './request';
import { toResponsesBody } from './responses-request';
import type { MaxTokensField } from './types';

export interface OpenAiCompatibleOptions {
  type: string;
  /** Chat Completions. */
  api: ChatApi;
  /** Default field for canonical maxTokens; a route may override it with `config.max_tokens_field`. */
  maxTokensField: MaxTokensField;
  sendModel: boolean;
  responsesApi: ResponsesApi;
  /** The API translated requests go to unless the route's `config.api` says otherwise. */
  defaultApi: OpenAiApiName;
  /**
   * Pass /v1/responses client bodies straight through: only for OpenAI itself, the one vendor
   * sure to serve them (elsewhere `config.api` is how a route says it has the API).
   */
  responsesPassthrough?: boolean;
  /** Where `POST /embeddings` lives; it takes the same body as OpenAI's (model as for chat). */
  embeddingsApi: ChatApi;
}

/** A client body in the vendor's own format, posted as it is (apart from the model). */
function passthroughTo(api: ChatApi, sendModel: boolean): NativeCallBuilder {
  return (body, target) => {
    const { model: _clientModel, ...rest } = body;
    const upstreamBody = sendModel ? { ...rest, model: target.upstreamModel } : rest;
    return postJson(api.url(target), api.headers(target), upstreamBody);
  };
}

function maxTokensFieldFor(target: UpstreamTarget, fallback: MaxTokensField): MaxTokensField {
  const configured = target.config.max_tokens_field;
  return configured === 'max_tokens' || configured === 'max_completion_tokens' ? configured : fallback;
}

function chatCall(
  request: CanonicalRequest,
  target: UpstreamTarget,
  options: OpenAiCompatibleOptions,
): UpstreamCall {
  const body = toOpenAiBody(request, {
    model: target.upstreamModel,
    maxTokensField: maxTokensFieldFor(target, options.maxTokensField),
    sendModel: options.sendModel,
    providerType: options.type,
  });
  return postJson(options.api.url(target), options.api.headers(target), body);
}

function responsesCall(
  request: CanonicalRequest,
  target: UpstreamTarget,
  options: OpenAiCompatibleOptions,
): UpstreamCall {
  const api = options.responsesApi;
  const model = api.model?.(target) ?? target.upstreamModel;
  const body = toResponsesBody(request, { model, providerType: options.type });
  return postJson(api.url(target), api.headers(target), body);
}

/**
 * Every type of the family reports OpenAI's reasoning as its own: each can speak the Responses
 * API, whose reasoning items it takes back; on Chat Completions reasoning parts are not sent.
 */
export function createOpenAiCompatibleAdapter(options: OpenAiCompatibleOptions): ProviderAdapter {
  return {
    type: options.type,
    reasoningVendor: 'openai',
    nativeCalls: {
      'openai-chat': passthroughTo(options.api, options.sendModel),
      ...(options.responsesPassthrough && {
        'openai-responses': passthroughTo(options.responsesApi, true),
      }),
    },
    embeddings: createOpenAiEmbeddings({
      vendor: options.type,
      api: options.embeddingsApi,
      sendModel: options.sendModel,
    }),
    buildRequest(input: CanonicalRequest, target: UpstreamTarget): UpstreamCall {
      const request = forModel(input, target.upstreamModel);
      return apiFor(target, options.defaultApi) === 'responses'
        ? responsesCall(request, target, options)
        : chatCall(request, target, options);
    },
    // Either API may have answered (the route chose); each answer is read by its shape.
    parseResponse: parseOpenAiFamilyResponse,
    createStreamDecoder: () => createSseStreamDecoder(new OpenAiFamilyStreamMapper()),
    mapError: mapOpenAiError,
  };
}

/**
 * api.openai.com: translated requests go to the Responses API, the only one that carries
 * reasoning between turns; `max_completion_tokens` on Chat Completions (its reasoning models
 * reject `max_tokens`).
 */
export const openAiAdapter: ProviderAdapter = createOpenAiCompatibleAdapter({
  type: 'openai',
  api: openAiApi,
  maxTokensField: 'max_completion_tokens',
  sendModel: true,
  responsesApi: openAiResponsesApi,
  defaultApi: 'responses',
  responsesPassthrough: true,
  embeddingsApi: openAiEmbeddingsApi,
});
