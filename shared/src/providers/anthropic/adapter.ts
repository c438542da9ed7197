/**
 * The Anthropic Messages adapter.
 */
import type { ProviderAdapter, UpstreamCall, UpstreamTarget } from '../../canonical/ports';
import type { CanonicalRequest } from '../../canonical/types';
import { createSseStreamDecoder } from '../common/openai-anthropic-sse-stream';
import { anthropicHeaders, anthropicMessagesUrl } from './api';
import { mapAnthropicError } from './errors';
import { toAnthropicBody } from './request';
import { parseAnthropicResponse } from './response';
import { AnthropicStreamMapper } from './stream';

export const anthropicAdapter: ProviderAdapter = {
  type: 'anthropic',
  nativeCalls: {
    'anthropic-messages': (body, target) => ({
      url: anthropicMessagesUrl(target),
      init: {
        method: 'POST',
        headers: anthropicHeaders(target),
        body: JSON.stringify({ ...body, model: target.upstreamModel }),
      },
    }),
  },
  countTokens: (body, target) => ({
    url: `${anthropicMessagesUrl(target)}/count_tokens`,
    init: {
      method: 'POST',
      headers: anthropicHeaders(target),
      body: JSON.stringify({ ...body, model: target.upstreamModel }),
    },
  }),
  buildRequest(request: CanonicalRequest, target: UpstreamTarget): UpstreamCall {
    return {
      url: anthropicMessagesUrl(target),
      init: {
        method: 'POST',
        headers: anthropicHeaders(target),
        body: JSON.stringify(toAnthropicBody(request, target.upstreamModel)),
      },
    };
  },
  parseResponse: parseAnthropicResponse,
  createStreamDecoder: () => createSseStreamDecoder(new AnthropicStreamMapper()),
  mapError: mapAnthropicError,
};
