import type { Principal } from '../auth/gateway/principal';
import type { CanonicalRequest } from '../canonical/types';
import type { RequestLogRecord } from '../logs/requests/record';
import type { ModelEndpoint, ResolvedRoute } from '../proxy/types';
import type { Attributes } from './span';

/**
 * The OpenTelemetry GenAI semantic conventions (gen_ai.*) for what the gateway knows of a
 * model request, and Sluice's own attributes under `sluice.`.
 */
const OPERATION: Record<ModelEndpoint, string> = {
  '/v1/chat/completions': 'chat',
  '/v1/messages': 'chat',
  '/v1/responses': 'chat',
  '/v1/messages/count_tokens': 'count_tokens',
  '/v1/embeddings': 'embeddings',
};

/** gen_ai.provider.name's well-known values, by Sluice provider type. */
const PROVIDER_NAME: Record<string, string> = {
  openai: 'openai',
  'azure-openai': 'azure.ai.openai',
  anthropic: 'anthropic',
  bedrock: 'aws.bedrock',
  google: 'gcp.gemini',
};

export const operationOf = (endpoint: ModelEndpoint): string => OPERATION[endpoint];

export function providerNameOf(providerType: string): string {
  return PROVIDER_NAME[providerType] ?? providerType;
}

/** Who asked: the key, its owner and team (never the key itself). */
export function principalAttributes(principal: Principal): Attributes {
  return {
    'sluice.user.id': principal.userId,
    'sluice.key.id': principal.kind === 'api_key' ? principal.keyId : undefined,
    'sluice.user.role': principal.role,
    'sluice.auth': principal.kind,
  };
}

/** What the client asked for, once its body parsed. */
export function requestAttributes(endpoint: ModelEndpoint, request: CanonicalRequest): Attributes {
  return {
    'gen_ai.operation.name': OPERATION[endpoint],
    'gen_ai.request.model': request.model,
    'gen_ai.request.max_tokens': request.maxTokens,
    'gen_ai.request.temperature': request.temperature,
    'gen_ai.request.top_p': request.topP,
    'gen_ai.request.stream': request.stream,
  };
}

/** One route attempt: the upstream call, as the GenAI client-span conventions name it. */
export function routeAttributes(endpoint: ModelEndpoint, route: ResolvedRoute, attempt: number): Attributes {
  return {
    'gen_ai.operation.name': OPERATION[endpoint],
    'gen_ai.provider.name': providerNameOf(route.providerType),
    'gen_ai.request.model': route.upstreamModel,
    'sluice.provider': route.providerName,
    'sluice.route.id': route.routeId ?? undefined,
    'sluice.attempt': attempt,
  };
}

/** The text after "Rate limited: " in a 429's message: the limit that refused. */
const LIMIT_LABEL = /Rate limited: (\S+?)[.,;]?(?:\s|$)/;

/** How the request ended, from its log row (the same figures the ledger keeps). */
export function outcomeAttributes(record: RequestLogRecord): Attributes {
  const attributes: Attributes = {
    'gen_ai.response.model': record.upstreamModel ?? undefined,
    'gen_ai.provider.name': record.providerType ? providerNameOf(record.providerType) : undefined,
    'gen_ai.usage.input_tokens': record.promptTokens,
    'gen_ai.usage.output_tokens': record.completionTokens,
    'gen_ai.usage.cache_read.input_tokens': record.cachedTokens,
    'gen_ai.usage.cache_creation.input_tokens': record.cacheWriteTokens,
    'gen_ai.usage.reasoning.output_tokens': record.reasoningTokens,
    'sluice.model': record.model,
    'sluice.provider': record.provider ?? undefined,
    'sluice.route.id': record.routeId ?? undefined,
    'sluice.attempts': record.attempts,
    'sluice.cache.hit': record.cacheHit,
    'sluice.cost.usd': record.costUsd ?? undefined,
    'sluice.unpriced': record.unpriced || undefined,
    'sluice.usage.estimated': record.usageEstimated || undefined,
    'sluice.client.aborted': record.clientAborted || undefined,
    'sluice.guardrail': record.guardrail ?? undefined,
  };
  if (record.errorType) {
    attributes['error.type'] = record.errorType;
    if (record.statusCode === 429)
      attributes['sluice.limit'] = LIMIT_LABEL.exec(record.errorMessage ?? '')?.[1];
  }
  return attributes;
}
