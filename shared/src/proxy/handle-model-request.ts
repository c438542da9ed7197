import type { CanonicalRequest } from '../canonical/types';
import { enforceContentPolicy, requestTexts } from '../guardrails/content-policy';
import { GuardrailRefusal } from '../guardrails/marks';
import { redactRequest } from '../guardrails/redact-canonical';
import { AppError } from '../http/app-error';
import { principalAttributes, requestAttributes } from '../telemetry/gen-ai';
import { NO_SPAN } from '../telemetry/span';
import type { Background } from '../util/background';
import {
  type Exchange,
  type ExchangeResult,
  failedExchange,
  markGuardrails,
  releaseReservation,
  settleExchange,
} from './accounting';
import { type Admitted, admit } from './admission';
import { chatRouteCaller } from './chat-route-call';
import { estimatePromptTokens, estimateStreamUsage } from './estimate-tokens';
import { clientOf, logRefusal } from './refusals';
import { answerClient, type ClientAnswer, type Finished } from './respond';
import type { CachedAnswer } from './response-cache';
import { ClientGoneError, callFirstWorkingRoute, RoutesFailedError, type WalkTrace } from './route-attempts';
import { contentForTrace, traceAnswer, tracedAnswer } from './trace-answer';
import type { Attempt, ProxyCall, ProxyDeps, ProxySettings } from './types';

export const CACHE_HEADER = 'x-sluice-cache';
/** The upstream model that answered (the client's own name is in the answer). */
export const UPSTREAM_MODEL_HEADER = 'x-sluice-upstream-model';
/** nginx's status for a request the client abandoned; logged, never seen by anyone. */
export const CLIENT_CLOSED_REQUEST = 499;
/** What a request refused before any upstream call logs. */
const NO_ROUTE: WalkTrace = { attempts: 0, route: null };

/**
 * One model request, any of the three formats: validate, authorise the model, resolve its
 * routes, admit it (one round trip), answer from the cache or the first working route, and
 * account for it after the response. Returns a Web Response; errors are thrown as AppError
 * for the app's onError.
 */
export async function handleModelRequest(call: ProxyCall, deps: ProxyDeps): Promise<Response> {
  const startedAt = deps.now();
  let request: CanonicalRequest;
  try {
    request = deps.formats[call.format].parseRequest(call.body);
  } catch (error) {
    throw logRefusal(error, call, deps, startedAt);
  }
  const span = call.span ?? NO_SPAN;
  if (span.recording) span.setAll(requestAttributes(call.endpoint, request));
  const promptTokens = estimatePromptTokens(request);
  let admitted: Admitted;
  try {
    admitted = await admit(call, request.model, deps, {
      kind: 'chat',
      cacheAs: call.format,
      firstRouteCaps: true,
      estimate: { inputTokens: promptTokens, maxOutputTokens: request.maxTokens ?? null },
    });
  } catch (error) {
    throw logRefusal(error, call, deps, startedAt, request);
  }
  const exchange: Exchange = {
    endpoint: call.endpoint,
    principal: admitted.principal,
    request,
    model: admitted.model,
    startedAt,
    reserved: admitted.reserved,
    logRedactor: admitted.settings.redaction?.logs ?? null,
    client: clientOf(call),
    span,
  };
  if (span.recording) span.setAll(principalAttributes(admitted.principal));
  const guarding =
    admitted.settings.contentPolicy && span.recording ? span.child('sluice.guardrails') : NO_SPAN;
  try {
    // After admission, so a client that keeps sending what the rules refuse meets its limits.
    const flags = enforceContentPolicy(admitted.settings.contentPolicy, requestTexts(request), promptTokens, {
      role: admitted.principal.role,
      model: request.model,
    });
    markGuardrails(exchange, flags);
    guarding.set('sluice.guardrail.flags', flags.length).end();
  } catch (error) {
    guarding.fail(error instanceof Error ? error.message : String(error)).end();
    return settleUnanswered(error, exchange, call, deps);
  }
  const redaction = admitted.settings.redaction;
  if (redaction?.request) exchange.request = redactRequest(request, redaction.request);
  if (span.recording && deps.traceContent?.()) {
    span.set('gen_ai.input.messages', contentForTrace(exchange.request, exchange.logRedactor));
  }
  if (admitted.cached) return replayCached(admitted.cached, exchange, call, deps, admitted.headers);
  try {
    return await forward(exchange, call, deps, admitted);
  } catch (error) {
    return settleUnanswered(error, exchange, call, deps);
  }
}

/**
 * A request that got no answer is logged all the same: a client that left as 499 (and nothing
 * is sent), a refusal with its error, which is thrown on for the app's onError.
 */
export function settleUnanswered(
  error: unknown,
  exchange: Exchange,
  call: ProxyCall,
  deps: ProxyDeps,
): Response {
  if (error instanceof GuardrailRefusal) markGuardrails(exchange, [error.mark]);
  if (error instanceof ClientGoneError) {
    settleExchange(exchange, clientGone(error.trace), deps, call.waitUntil);
    return new Response(null, { status: CLIENT_CLOSED_REQUEST });
  }
  if (error instanceof AppError) {
    const trace = error instanceof RoutesFailedError ? error.trace : NO_ROUTE;
    settleExchange(exchange, failedExchange(error, trace), deps, call.waitUntil);
  } else {
    releaseReservation(exchange, deps, call.waitUntil);
  }
  throw error;
}

async function forward(
  exchange: Exchange,
  call: ProxyCall,
  deps: ProxyDeps,
  admitted: Admitted,
): Promise<Response> {
  const { settings, cacheKey } = admitted;
  const success = await callFirstWorkingRoute(
    exchange.model,
    deps,
    settings,
    {
      firstRoute: admitted.firstRoute,
      health: admitted.health,
      admittedAt: admitted.admittedAt,
      routes: admitted.routes,
      keepAlive: call.waitUntil,
      span: exchange.span,
      endpoint: call.endpoint,
    },
    chatRouteCaller(exchange, call, deps, settings),
  );
  const attempt: Attempt = { ...success.value, route: success.route, attempts: success.attempts };
  const answer = await answerClient(attempt, deps.formats[call.format], exchange.request, {
    // A traced answer is kept whole for its span (finish reasons, content): traceAnswer.
    keep: cacheKey !== null || success.span.recording,
    idleTimeoutMs: settings.upstreamIdleTimeoutMs,
    redactor: settings.redaction?.response ?? null,
    toolPolicy: settings.toolPolicy,
    seal: deps.seal,
    byteChannel: deps.byteChannel,
    clientLeft: () => call.signal?.aborted === true,
    onGuardrail: (mark) => markGuardrails(exchange, [mark]),
  }).catch((error: unknown) => {
    const trace = { attempts: attempt.attempts, route: attempt.route };
    if (error instanceof AppError) throw new RoutesFailedError(error, trace);
    // The client left while the body was read: its abort broke the read off (upstream-fetch.ts).
    if (call.signal?.aborted) throw new ClientGoneError(trace);
    // Otherwise the upstream's connection broke off before its answer was whole.
    const reason = error instanceof Error ? error.message : String(error);
    throw new RoutesFailedError(
      new AppError(502, `Upstream ${attempt.route.providerName} broke off the answer (${reason})`),
      trace,
    );
  });
  const after = answer.finished.then((finished) => {
    const result = answeredResult(exchange, attempt, finished, call.signal?.aborted === true);
    if (success.span.recording) traceAnswer(success.span, exchange, finished, tracedAnswer(call, deps));
    settleExchange(exchange, result, deps, call.waitUntil);
    if (cacheKey && finished.completed && finished.bytes) {
      storeInCache(cacheKey, answer, finished, attempt.route.providerName, settings, deps, call.waitUntil);
    }
  });
  call.waitUntil(after);
  if (typeof answer.body !== 'string') call.bodyEnds?.(answer.finished);
  const headers = {
    ...answer.headers,
    ...admitted.headers,
    [CACHE_HEADER]: cacheKey ? 'MISS' : 'BYPASS',
    [UPSTREAM_MODEL_HEADER]: attempt.route.upstreamModel,
  };
  return new Response(answer.body, { status: answer.status, headers });
}

/**
 * How an answered exchange ended: whole (200); failed on the upstream's side after it started
 * (502: broke off, its own error event, an oversized event); cut by the gateway because the
 * upstream fell silent (504); or left by the client (499). A stream that reported no usage is
 * charged by the gateway's estimate once any of it came.
 */
function answeredResult(
  exchange: Exchange,
  attempt: Attempt,
  finished: Finished,
  aborted: boolean,
): ExchangeResult {
  const { failure, stalled, completed } = finished;
  // A client that left before any of the answer came is charged nothing (its reservation
  // goes back); any answer that came, or that the upstream broke off, is counted.
  const answered = completed || failure !== null || finished.answerChars > 0;
  const estimated = finished.usage === null && exchange.request.stream && answered;
  const base = {
    route: attempt.route,
    usage: estimated ? estimateStreamUsage(exchange.request, finished.answerChars) : finished.usage,
    usageEstimated: estimated,
    attempts: attempt.attempts,
    upstreamLatencyMs: attempt.upstreamLatencyMs,
    cacheHit: false,
  };
  if (failure !== null) {
    return {
      ...base,
      statusCode: 502,
      errorType: 'upstream_error',
      errorMessage: failure,
      clientAborted: false,
    };
  }
  if (completed) return { ...base, statusCode: 200, clientAborted: aborted };
  if (stalled !== null) {
    return {
      ...base,
      statusCode: 504,
      errorType: 'upstream_timeout',
      errorMessage: stalled,
      clientAborted: false,
    };
  }
  return { ...base, statusCode: CLIENT_CLOSED_REQUEST, clientAborted: true };
}

function storeInCache(
  key: string,
  answer: ClientAnswer,
  finished: { usage: CachedAnswer['usage']; bytes: Uint8Array | null },
  provider: string,
  settings: ProxySettings,
  deps: ProxyDeps,
  keepAlive: Background,
): void {
  const entry: CachedAnswer = {
    contentType: answer.headers['content-type'] ?? 'application/json',
    body: new TextDecoder().decode(finished.bytes ?? new Uint8Array()),
    usage: finished.usage,
    provider,
  };
  void deps.cache.set(key, entry, settings.cacheTtlSeconds, keepAlive);
}

export function replayCached(
  hit: CachedAnswer,
  exchange: Exchange,
  call: ProxyCall,
  deps: ProxyDeps,
  limitHeaders: Record<string, string>,
): Response {
  const result: ExchangeResult = {
    route: exchange.model.routes.find((r) => r.providerName === hit.provider) ?? null,
    statusCode: 200,
    usage: hit.usage,
    attempts: 0,
    upstreamLatencyMs: null,
    cacheHit: true,
    clientAborted: false,
  };
  settleExchange(exchange, result, deps, call.waitUntil);
  const headers: Record<string, string> = {
    'content-type': hit.contentType,
    ...limitHeaders,
    [CACHE_HEADER]: 'HIT',
  };
  if (exchange.request.stream) headers['cache-control'] = 'no-cache';
  return new Response(hit.body, { status: 200, headers });
}

function clientGone(trace: WalkTrace): ExchangeResult {
  return {
    ...failedExchange(new AppError(400, 'client went away'), trace),
    statusCode: CLIENT_CLOSED_REQUEST,
    clientAborted: true,
  };
}
