import { mayUseModel, type Principal } from '../gateway/principal';
import { AppError, tooManyRequests } from '../http/app-error';
import { limitSubject } from '../limits/definitions';
import { type Exchange, type ExchangeResult, settleExchange } from './accounting';
import { answerClient, type ClientAnswer } from './respond';
import type { CachedAnswer } from './response-cache';
import { ClientGoneError, callFirstWorkingRoute } from './route-attempts';
import type { ProxyCall, ProxyDeps, ProxySettings } from './types';

export const CACHE_HEADER = 'x-sluice-cache';
/** nginx's status for a request the client abandoned; logged, never seen by anyone. */
export const CLIENT_CLOSED_REQUEST = 499;

/**
 * One model request, any of the three formats: validate, authorise the model, resolve its
 * routes, answer from the cache or the first working route, and account for it after the
 * response. Returns a Web Response; errors are thrown as AppError for the app's onError.
 */
export async function handleModelRequest(call: ProxyCall, deps: ProxyDeps): Promise<Response> {
  const startedAt = deps.now();
  const format = deps.formats[call.format];
  const request = format.parseRequest(call.body);
  if (!mayUseModel(call.principal, request.model)) throw new AppError(403, 'Model not allowed');
  const model = await deps.resolveModel(request.model);
  if (!model) throw new AppError(404, 'Model not found');
  const settings = await deps.settings();
  const cacheKey = await cacheKeyFor(call, settings, deps);
  // Limits come after the model checks, so a refused model counts against nothing, and apply
  // to cached answers like any other (spec rule 6). Admission and the cache read go out
  // together (one round trip's wait, not two); a refused request ignores what the cache said.
  const [admission, hit] = await Promise.all([
    deps.limiter.admit(limitSubject(call.principal), deps.now(), {
      failClosed: settings.rateLimitFailClosed,
    }),
    cacheKey ? readCache(cacheKey, deps) : null,
  ]);
  if (!admission.ok) throw tooManyRequests(`Rate limited: ${admission.label}`, admission.retryAfterSeconds);
  const exchange: Exchange = {
    endpoint: call.endpoint,
    principal: call.principal,
    request,
    model,
    startedAt,
  };
  if (hit) return withHeaders(replayCached(hit, exchange, call, deps), admission.headers);
  try {
    return withHeaders(await forward(exchange, call, deps, settings, cacheKey), admission.headers);
  } catch (error) {
    if (error instanceof ClientGoneError) {
      call.waitUntil(settleExchange(exchange, clientGone(), deps));
      return new Response(null, { status: CLIENT_CLOSED_REQUEST });
    }
    if (error instanceof AppError) call.waitUntil(settleExchange(exchange, failure(error), deps));
    throw error;
  }
}

async function forward(
  exchange: Exchange,
  call: ProxyCall,
  deps: ProxyDeps,
  settings: ProxySettings,
  cacheKey: string | null,
): Promise<Response> {
  const attempt = await callFirstWorkingRoute(exchange.model, exchange.request, call, deps, settings);
  const answer = await answerClient(attempt, deps.formats[call.format], exchange.request);
  const after = answer.finished.then(async (finished) => {
    const result: ExchangeResult = {
      route: attempt.route,
      // An unfinished stream: the client left (or the upstream broke off) part way.
      statusCode: finished.completed ? 200 : CLIENT_CLOSED_REQUEST,
      usage: finished.usage,
      attempts: attempt.attempts,
      upstreamLatencyMs: attempt.upstreamLatencyMs,
      cacheHit: false,
      clientAborted: call.signal?.aborted === true || !finished.completed,
    };
    await settleExchange(exchange, result, deps);
    if (cacheKey && finished.completed && finished.bytes) {
      await storeInCache(cacheKey, answer, finished.bytes, attempt.route.providerName, settings, deps);
    }
  });
  call.waitUntil(after);
  const headers = { ...answer.headers, [CACHE_HEADER]: cacheKey ? 'MISS' : 'BYPASS' };
  return new Response(answer.body, { status: answer.status, headers });
}

async function cacheKeyFor(
  call: ProxyCall,
  settings: ProxySettings,
  deps: ProxyDeps,
): Promise<string | null> {
  if (!call.useCache || settings.cacheTtlSeconds <= 0) return null;
  return deps.cache.keyFor(cacheScope(call.principal), call.format, call.body);
}

/** Cached answers are private to the key that caused them (the user, for console JWTs). */
function cacheScope(principal: Principal): string {
  return principal.kind === 'api_key' ? `key:${principal.keyId}` : `user:${principal.userId}`;
}

async function readCache(key: string, deps: ProxyDeps): Promise<CachedAnswer | null> {
  try {
    return await deps.cache.get(key);
  } catch (error) {
    deps.warn('response cache unavailable; calling upstream', { error: String(error) });
    return null;
  }
}

async function storeInCache(
  key: string,
  answer: ClientAnswer,
  bytes: Uint8Array,
  provider: string,
  settings: ProxySettings,
  deps: ProxyDeps,
): Promise<void> {
  const finished = await answer.finished;
  const entry: CachedAnswer = {
    contentType: answer.headers['content-type'] ?? 'application/json',
    body: new TextDecoder().decode(bytes),
    usage: finished.usage,
    provider,
  };
  await deps.cache.set(key, entry, settings.cacheTtlSeconds).catch((error: unknown) => {
    deps.warn('response cache write failed', { error: String(error) });
  });
}

function replayCached(hit: CachedAnswer, exchange: Exchange, call: ProxyCall, deps: ProxyDeps): Response {
  const result: ExchangeResult = {
    route: exchange.model.routes.find((r) => r.providerName === hit.provider) ?? null,
    statusCode: 200,
    usage: hit.usage,
    attempts: 0,
    upstreamLatencyMs: null,
    cacheHit: true,
    clientAborted: false,
  };
  call.waitUntil(settleExchange(exchange, result, deps));
  const headers: Record<string, string> = { 'content-type': hit.contentType, [CACHE_HEADER]: 'HIT' };
  if (exchange.request.stream) headers['cache-control'] = 'no-cache';
  return new Response(hit.body, { status: 200, headers });
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

function clientGone(): ExchangeResult {
  return {
    ...failure(new AppError(400, 'client went away')),
    statusCode: CLIENT_CLOSED_REQUEST,
    clientAborted: true,
  };
}

function failure(error: AppError): ExchangeResult {
  return {
    route: null,
    statusCode: error.status,
    usage: null,
    errorType: error.type,
    errorMessage: error.message,
    attempts: 0,
    upstreamLatencyMs: null,
    cacheHit: false,
    clientAborted: false,
  };
}
