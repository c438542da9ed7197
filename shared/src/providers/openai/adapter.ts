/**
 * The Chat Completions adapter, parameterised so Azure and custom OpenAI-compatible
 * servers compose it with their own endpoint and defaults instead of copying it.
 */
import type { NativeCallBuilder, ProviderAdapter, UpstreamCall, UpstreamTarget } from '../../canonical/ports';
import type { CanonicalRequest } from '../../canonical/types';
import { postJson } from '../common/json';
import { createSseStreamDecoder } from '../common/sse-stream';
import { type ChatApi, openAiApi, openAiEmbeddingsApi, openAiResponsesApi } from './api';
import { createOpenAiEmbeddings } from './embeddings';
import { mapOpenAiError } from './errors';
import { toOpenAiBody } from './request';
import { parseOpenAiResponse } from './response';
import { OpenAiStreamMapper } from './stream';
import type { MaxTokensField } from './types';

export interface OpenAiCompatibleOptions {
  type: string;
  api: ChatApi;
  /** Default field for canonical maxTokens; a route may override it with `config.max_tokens_field`. */
  maxTokensField: MaxTokensField;
  sendModel: boolean;
  /** Set when the vendor also serves the Responses API (only OpenAI itself). */
  responsesApi?: ChatApi;
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

export function createOpenAiCompatibleAdapter(options: OpenAiCompatibleOptions): ProviderAdapter {
  return {
    type: options.type,
    nativeCalls: {
      'openai-chat': passthroughTo(options.api, options.sendModel),
      ...(options.responsesApi && { 'openai-responses': passthroughTo(options.responsesApi, true) }),
    },
    embeddings: createOpenAiEmbeddings({
      vendor: options.type,
      api: options.embeddingsApi,
      sendModel: options.sendModel,
    }),
    buildRequest(request: CanonicalRequest, target: UpstreamTarget): UpstreamCall {
      const body = toOpenAiBody(request, {
        model: target.upstreamModel,
        maxTokensField: maxTokensFieldFor(target, options.maxTokensField),
        sendModel: options.sendModel,
      });
      return postJson(options.api.url(target), options.api.headers(target), body);
    },
    parseResponse: parseOpenAiResponse,
    createStreamDecoder: () => createSseStreamDecoder(new OpenAiStreamMapper()),
    mapError: mapOpenAiError,
  };
}

/**
 * api.openai.com accepts `max_completion_tokens` for every chat model and its reasoning
 * models reject `max_tokens`, so OpenAI itself gets the new name.
 */
export const openAiAdapter: ProviderAdapter = createOpenAiCompatibleAdapter({
  type: 'openai',
  api: openAiApi,
  maxTokensField: 'max_completion_tokens',
  sendModel: true,
  responsesApi: openAiResponsesApi,
  embeddingsApi: openAiEmbeddingsApi,
});
