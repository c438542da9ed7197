import type { EmbeddingRequest } from '../canonical/embeddings';
import { enforceContentPolicy } from '../guardrails/content-policy';
import type { Redactor } from '../guardrails/redact-text';
import { principalAttributes } from '../telemetry/gen-ai';
import { parseEmbeddingRequest } from '../wire/openai-embeddings/request';
import { renderEmbeddings } from '../wire/openai-embeddings/response';
import { type Exchange, markGuardrails, settleExchange } from './accounting';
import { type Admitted, admit } from './admission';
import { TOKEN_COUNT_HEADER } from './count-tokens';
import { type EmbeddingsAnswer, embeddingsRouteCaller, embedsRequest } from './embeddings-route-call';
import { estimateEmbeddingTokens } from './estimate-tokens';
import { CACHE_HEADER, replayCached, settleUnanswered } from './handle-model-request';
import { clientOf, logRefusal } from './refusals';
import { JSON_HEADERS } from './respond';
import { callFirstWorkingRoute, type RouteSuccess } from './route-attempts';
import type { ProxyCall, ProxyDeps } from './types';

/**
 * POST /v1/embeddings (OpenAI's shape) for models of kind `embedding`: admitted like a chat
 * request (allowed models, every request limit, the first route's caps, the response cache),
 * routed with the same fallback, and accounted for with its input tokens (limits, budgets,
 * cost at the model's input price). A vendor that does not count tokens gets the documented
 * estimate, said so in `x-sluice-token-count`.
 */
export async function handleEmbeddings(call: ProxyCall, deps: ProxyDeps): Promise<Response> {
  const startedAt = deps.now();
  let request: EmbeddingRequest;
  try {
    request = parseEmbeddingRequest(call.body);
  } catch (error) {
    throw logRefusal(error, call, deps, startedAt);
  }
  let admitted: Admitted;
  try {
    admitted = await admit(call, request.model, deps, {
      kind: 'embedding',
      cacheAs: 'openai-embeddings',
      firstRouteCaps: true,
      serves: embedsRequest(request),
      unserved:
        request.input.kind === 'tokens'
          ? 'token-id input needs an OpenAI-compatible provider; send text'
          : 'its providers have no embeddings API',
      estimate: { inputTokens: estimateEmbeddingTokens(request.input), maxOutputTokens: 0 },
    });
  } catch (error) {
    throw logRefusal(error, call, deps, startedAt);
  }
  const exchange: Exchange = {
    endpoint: '/v1/embeddings',
    principal: admitted.principal,
    request: { model: request.model, system: [], messages: [], stream: false },
    model: admitted.model,
    startedAt,
    reserved: admitted.reserved,
    logRedactor: admitted.settings.redaction?.logs ?? null,
    client: clientOf(call),
    span: call.span,
  };
  if (call.span?.recording) {
    call.span.setAll({ 'gen_ai.operation.name': 'embeddings', 'gen_ai.request.model': request.model });
    call.span.setAll(principalAttributes(admitted.principal));
  }
  const texts = request.input.kind === 'text' ? request.input.texts : [];
  try {
    const flags = enforceContentPolicy(
      admitted.settings.contentPolicy,
      texts,
      estimateEmbeddingTokens(request.input),
      { role: admitted.principal.role, model: request.model },
    );
    markGuardrails(exchange, flags);
  } catch (error) {
    return settleUnanswered(error, exchange, call, deps);
  }
  if (admitted.cached) return replayCached(admitted.cached, exchange, call, deps, admitted.headers);
  const upstreamRequest = redactEmbeddingInput(request, admitted.settings.redaction?.request ?? null);
  try {
    const success = await callFirstWorkingRoute(
      exchange.model,
      deps,
      admitted.settings,
      {
        firstRoute: admitted.firstRoute,
        health: admitted.health,
        admittedAt: admitted.admittedAt,
        routes: admitted.routes,
        keepAlive: call.waitUntil,
        span: call.span,
        endpoint: call.endpoint,
      },
      embeddingsRouteCaller(upstreamRequest, call, deps, admitted.settings),
    );
    return answer(success, request, exchange, call, deps, admitted);
  } catch (error) {
    return settleUnanswered(error, exchange, call, deps);
  }
}

/** security.redact for what leaves for the upstream: the texts to embed. */
function redactEmbeddingInput(request: EmbeddingRequest, redactor: Redactor | null): EmbeddingRequest {
  if (!redactor || request.input.kind !== 'text') return request;
  return { ...request, input: { kind: 'text', texts: request.input.texts.map((t) => redactor.redact(t)) } };
}

function answer(
  success: RouteSuccess<EmbeddingsAnswer>,
  request: EmbeddingRequest,
  exchange: Exchange,
  call: ProxyCall,
  deps: ProxyDeps,
  admitted: Admitted,
): Response {
  const { result, upstreamLatencyMs } = success.value;
  success.span.end();
  const inputTokens = result.inputTokens ?? estimateEmbeddingTokens(request.input);
  const usage = { inputTokens, outputTokens: 0 };
  const body = JSON.stringify(renderEmbeddings(result.vectors, request, inputTokens));
  settleExchange(
    exchange,
    {
      route: success.route,
      statusCode: 200,
      usage,
      attempts: success.attempts,
      upstreamLatencyMs,
      cacheHit: false,
      clientAborted: false,
    },
    deps,
    call.waitUntil,
  );
  const { cacheKey, settings } = admitted;
  if (cacheKey) {
    const entry = {
      contentType: JSON_HEADERS['content-type'],
      body,
      usage,
      provider: success.route.providerName,
    };
    void deps.cache.set(cacheKey, entry, settings.cacheTtlSeconds, call.waitUntil);
  }
  const headers = {
    ...JSON_HEADERS,
    ...admitted.headers,
    [CACHE_HEADER]: cacheKey ? 'MISS' : 'BYPASS',
    [TOKEN_COUNT_HEADER]: result.inputTokens === null ? 'estimate' : 'exact',
  };
  return new Response(body, { status: 200, headers });
}
