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
    postJson(url(target), anthropicHeaders(target, body), { ...body, model: target.upstreamModel });
}

/**
 * What only generating takes: count_tokens takes what /v1/messages does (so a client can count
 * the very body it will send), and Anthropic's counter refuses these fields.
 */
const GENERATION_ONLY = [
  'max_tokens',
  'stream',
  'metadata',
  'stop_sequences',
  'temperature',
  'top_p',
  'top_k',
  'service_tier',
];

function countable(body: Record<string, unknown>): Record<string, unknown> {
  const out = { ...body };
  for (const field of GENERATION_ONLY) delete out[field];
  return out;
}

const countTokensCall = passthroughTo((target) => `${anthropicMessagesUrl(target)}/count_tokens`);

export const anthropicAdapter: ProviderAdapter = {
  type: 'anthropic',
  reasoningVendor: 'anthropic',
  nativeCalls: { 'anthropic-messages': passthroughTo(anthropicMessagesUrl) },
  countTokens: (body, target) => countTokensCall(countable(body), target),
  buildRequest(request: CanonicalRequest, target: UpstreamTarget): UpstreamCall {
    const body = toAnthropicBody(request, target);
    return postJson(anthropicMessagesUrl(target), anthropicHeaders(target, body), body);
  },
  parseResponse: parseAnthropicResponse,
  createStreamDecoder: () => createSseStreamDecoder(new AnthropicStreamMapper()),
  mapError: mapAnthropicError,
};
