import type { CanonicalRequest } from '../canonical/types';
import { AppError } from '../http/app-error';
import { routeAttributes } from '../telemetry/gen-ai';
import { parseCountTokensRequest } from '../wire/anthropic-messages/to-canonical';
import { type Exchange, type ExchangeResult, failedExchange, settleExchange } from './accounting';
import { type Admitted, admit, firstUsableRoute } from './admission';
import { estimateInputTokens } from './estimate-tokens';
import { readUpstreamTextInTime } from './idle-guard';
import { hasSealed } from './reasoning-flow';
import { clientOf, logRefusal } from './refusals';
import { clientFacingError, targetFor } from './route-attempts';
import type { ProxyCall, ProxyDeps, ResolvedRoute } from './types';
import { fetchUpstream } from './upstream-fetch';

/** Says how the answer's figure was reached. */
export const TOKEN_COUNT_HEADER = 'x-sluice-token-count';

interface Counted {
  inputTokens: number;
  how: 'exact' | 'estimate';
  route: ResolvedRoute | null;
  attempts: number;
  upstreamLatencyMs: number | null;
}

/**
 * POST /v1/messages/count_tokens (Anthropic's shape). Admitted like a model request — the
 * model must be the caller's, and the call counts as one request against every request limit
 * — but it counts no tokens, takes no part in the response cache or in route caps, and is
 * logged with 0 tokens at no cost. Exact when the model's first route is of a type whose
 * vendor counts (anthropic); otherwise, or when that vendor cannot be reached, an estimate.
 */
export async function handleCountTokens(call: ProxyCall, deps: ProxyDeps): Promise<Response> {
  const startedAt = deps.now();
  let request: CanonicalRequest;
  try {
    request = parseCountTokensRequest(call.body);
  } catch (error) {
    throw logRefusal(error, call, deps, startedAt);
  }
  const body = call.body as Record<string, unknown>;
  let admitted: Admitted;
  try {
    admitted = await admit(call, request.model, deps, { kind: 'chat', cacheAs: null, firstRouteCaps: false });
  } catch (error) {
    throw logRefusal(error, call, deps, startedAt, request);
  }
  const exchange: Exchange = {
    endpoint: '/v1/messages/count_tokens',
    principal: admitted.principal,
    request: { model: request.model, system: [], messages: [], stream: false },
    model: admitted.model,
    startedAt,
    reserved: admitted.reserved,
    client: clientOf(call),
    span: call.span,
  };
  let counted: Counted;
  try {
    counted = await count(body, request, exchange, call, deps, admitted.settings.upstreamTimeoutMs);
  } catch (error) {
    if (error instanceof AppError)
      settleExchange(exchange, failedExchange(error, { attempts: 0, route: null }), deps, call.waitUntil);
    throw error;
  }
  settleExchange(exchange, settled(counted), deps, call.waitUntil);
  return Response.json(
    { input_tokens: counted.inputTokens },
    { headers: { ...admitted.headers, [TOKEN_COUNT_HEADER]: counted.how } },
  );
}

async function count(
  body: Record<string, unknown>,
  request: CanonicalRequest,
  exchange: Exchange,
  call: ProxyCall,
  deps: ProxyDeps,
  timeoutMs: number,
): Promise<Counted> {
  const route = firstUsableRoute(exchange.model.routes, deps) ?? null;
  const adapter = route ? deps.providers[route.providerType] : undefined;
  const counter = adapter?.countTokens;
  const estimate = (attempts: number): Counted => ({
    inputTokens: estimateInputTokens(body),
    how: 'estimate',
    route,
    attempts,
    upstreamLatencyMs: null,
  });
  if (!route || !adapter || !counter) return estimate(0);
  const target = await targetFor(route, deps, { model: exchange.model, headers: call.headers });
  // Thinking another vendor produced cannot be counted by this one: its seal is taken out. The
  // parser marked every seal the body carries (`sealed`): none, nothing to look through.
  const sent = hasSealed(request.messages)
    ? await deps.formats['anthropic-messages'].restoreReasoning(body, adapter.reasoningVendor, deps.seal.open)
    : body;
  const upstream = counter(sent, target);
  const span = call.span?.recording
    ? call.span.child(
        `count_tokens ${route.upstreamModel}`,
        'client',
        routeAttributes(call.endpoint, route, 1),
      )
    : call.span;
  const result = await fetchUpstream(deps.fetch, upstream, {
    timeoutMs,
    bodyTimeoutMs: timeoutMs,
    clientSignal: call.signal,
    now: deps.now,
    traceHeaders: span?.context ? span.headers() : undefined,
  }).finally(() => span?.end());
  if (!result.ok) {
    if (result.reason === 'client_aborted') throw new AppError(400, 'client went away');
    return estimate(1);
  }
  const text = await readUpstreamTextInTime(result.response, timeoutMs, result.abort, result.deadline);
  if (text === null) return estimate(1);
  if (!result.response.ok) {
    const failure = adapter.mapError(result.response.status, text);
    if (failure.retryable) return estimate(1);
    throw clientFacingError(failure, route);
  }
  const inputTokens = vendorCount(text);
  if (inputTokens === null) return estimate(1);
  return { inputTokens, how: 'exact', route, attempts: 1, upstreamLatencyMs: result.latencyMs };
}

function vendorCount(text: string): number | null {
  try {
    const value = (JSON.parse(text) as { input_tokens?: unknown }).input_tokens;
    return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
  } catch {
    return null;
  }
}

function settled(counted: Counted): ExchangeResult {
  return {
    route: counted.route,
    statusCode: 200,
    usage: null,
    attempts: counted.attempts,
    upstreamLatencyMs: counted.upstreamLatencyMs,
    cacheHit: false,
    clientAborted: false,
  };
}
