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

/** A client body already in Messages format, with the route's model in place of the client's. */
function withRouteModel(body: Record<string, unknown>, target: UpstreamTarget): Record<string, unknown> {
  return { ...body, model: target.upstreamModel };
}

/** Posts a client body already in Messages format, as `prepare` makes it ready for the route. */
function passthroughTo(
  url: (target: UpstreamTarget) => string,
  prepare: (body: Record<string, unknown>, target: UpstreamTarget) => Record<string, unknown>,
): NativeCallBuilder {
  return (body, target) => {
    const upstreamBody = prepare(body, target);
    return postJson(url(target), anthropicHeaders(target, upstreamBody), upstreamBody);
  };
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

function countable(body: Record<string, unknown>, target: UpstreamTarget): Record<string, unknown> {
  const out = withRouteModel(body, target);
  for (const field of GENERATION_ONLY) delete out[field];
  return out;
}

const countTokensUrl = (target: UpstreamTarget) => `${anthropicMessagesUrl(target)}/count_tokens`;

export const anthropicAdapter: ProviderAdapter = {
  type: 'anthropic',
  reasoningVendor: 'anthropic',
  nativeCalls: { 'anthropic-messages': passthroughTo(anthropicMessagesUrl, withRouteModel) },
  countTokens: passthroughTo(countTokensUrl, countable),
  buildRequest(request: CanonicalRequest, target: UpstreamTarget): UpstreamCall {
    const body = toAnthropicBody(request, target);
    return postJson(anthropicMessagesUrl(target), anthropicHeaders(target, body), body);
  },
  parseResponse: parseAnthropicResponse,
  createStreamDecoder: () => createSseStreamDecoder(new AnthropicStreamMapper()),
  mapError: mapAnthropicError,
};
