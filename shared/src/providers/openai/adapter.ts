/**
 * The Chat Completions adapter, parameterised so Azure and custom OpenAI-compatible
 * servers compose it with their own endpoint and defaults instead of copying it.
 */
import type { ProviderAdapter, UpstreamCall, UpstreamTarget } from '../../canonical/ports';
import type { CanonicalRequest } from '../../canonical/types';
import { createSseStreamDecoder } from '../common/openai-anthropic-sse-stream';
import { type ChatApi, openAiApi } from './api';
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
}

function maxTokensFieldFor(target: UpstreamTarget, fallback: MaxTokensField): MaxTokensField {
  const configured = target.config.max_tokens_field;
  return configured === 'max_tokens' || configured === 'max_completion_tokens' ? configured : fallback;
}

export function createOpenAiCompatibleAdapter(options: OpenAiCompatibleOptions): ProviderAdapter {
  return {
    type: options.type,
    nativeFormat: 'openai-chat',
    buildRequest(request: CanonicalRequest, target: UpstreamTarget): UpstreamCall {
      const body = toOpenAiBody(request, {
        model: target.upstreamModel,
        maxTokensField: maxTokensFieldFor(target, options.maxTokensField),
        sendModel: options.sendModel,
      });
      return {
        url: options.api.url(target),
        init: { method: 'POST', headers: options.api.headers(target), body: JSON.stringify(body) },
      };
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
});
