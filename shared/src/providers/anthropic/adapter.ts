/**
 * The Anthropic Messages adapter.
 */
import type { NativeCallBuilder, ProviderAdapter, UpstreamCall, UpstreamTarget } from '../../canonical/ports';
import type { CanonicalRequest } from '../../canonical/types';
import { postJson } from '../common/json';
import { createSseStreamDecoder } from '../common/sse-stream';
import { anthropicHeaders, anthropicMessagesUrl } from './api';
import { mapAnthropicError } from './errors';
import { toAnthropicBody } from './request';
import { parseAnthropicResponse } from './response';
import { AnthropicStreamMapper } from './stream';

/** A client body already in Messages format, posted with the route's model in place of the client's. */
function passthroughTo(url: (target: UpstreamTarget) => string): NativeCallBuilder {
  return (body, target) =>
    postJson(url(target), anthropicHeaders(target), { ...body, model: target.upstreamModel });
}

export const anthropicAdapter: ProviderAdapter = {
  type: 'anthropic',
  nativeCalls: { 'anthropic-messages': passthroughTo(anthropicMessagesUrl) },
  countTokens: passthroughTo((target) => `${anthropicMessagesUrl(target)}/count_tokens`),
  buildRequest(request: CanonicalRequest, target: UpstreamTarget): UpstreamCall {
    const body = toAnthropicBody(request, target.upstreamModel);
    return postJson(anthropicMessagesUrl(target), anthropicHeaders(target), body);
  },
  parseResponse: parseAnthropicResponse,
  createStreamDecoder: () => createSseStreamDecoder(new AnthropicStreamMapper()),
  mapError: mapAnthropicError,
};
