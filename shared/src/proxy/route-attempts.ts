import type { UpstreamCall, UpstreamTarget } from '../canonical/ports';
import type { UpstreamError } from '../canonical/types';
import { AppError, type ErrorStatus } from '../http/app-error';
import type { FirstRouteCheck } from '../limits/gate';
import type { RouteCapDecision } from '../limits/route-caps';
import type { Exchange } from './accounting';
import type { Attempt, ProxyCall, ProxyDeps, ProxySettings, ResolvedModel, ResolvedRoute } from './types';
import { fetchUpstream } from './upstream-fetch';

/** Which routes a failed request reached, for its log row. */
export interface WalkTrace {
  attempts: number;
  /** The last route an upstream call was made to (null: none was). */
  route: ResolvedRoute | null;
}

/** Thrown when the client left before any upstream answered; nothing is sent back. */
export class ClientGoneError extends Error {
  constructor(readonly trace: WalkTrace) {
    super('client went away');
  }
}

/** The client's error after the routes were tried, with how far the walk got. */
export class RoutesFailedError extends AppError {
  constructor(
    error: AppError,
    readonly trace: WalkTrace,
  ) {
    super(error.status, error.message, { type: error.type, headers: error.headers, details: error.details });
  }
}

type Refusal = Extract<RouteCapDecision, { ok: false }>;

/** What a fail-closed gateway answers when the route-cap counters cannot be reached. */
const UNAVAILABLE: Refusal = { ok: false, label: 'rate_limiter_unavailable', retryAfterSeconds: 30 };

interface RouteWalk {
  tried: number;
  /** Of those tried, how many gave no headers within the first-byte timeout. */
  timedOut: number;
  last: ResolvedRoute | null;
  refusal: Refusal | null;
  lastFailure: string;
}

/**
 * Tries the model's routes in order. A route is skipped when its cap is reached, and left
 * for the next one when the upstream fails in a way another upstream might not (connect
 * error, timeout, 429, 5xx). Nothing has reached the client yet at this point, so moving on
 * is always safe. Other upstream refusals are the client's to see. The first usable route's
 * caps were checked (and counted) by the gate in the admission round trip.
 */
export async function callFirstWorkingRoute(
  exchange: Exchange,
  call: ProxyCall,
  deps: ProxyDeps,
  settings: ProxySettings,
  firstRoute: FirstRouteCheck,
): Promise<Attempt> {
  const walk: RouteWalk = {
    tried: 0,
    timedOut: 0,
    last: null,
    refusal: null,
    lastFailure: 'no usable route',
  };
  try {
    return await walkRoutes(exchange, call, deps, settings, firstRoute, walk);
  } catch (error) {
    const trace = { attempts: walk.tried, route: walk.last };
    throw error instanceof AppError ? new RoutesFailedError(error, trace) : error;
  }
}

async function walkRoutes(
  exchange: Exchange,
  call: ProxyCall,
  deps: ProxyDeps,
  settings: ProxySettings,
  firstRoute: FirstRouteCheck,
  walk: RouteWalk,
): Promise<Attempt> {
  const { model, request: canonical } = exchange;
  let first = true;
  for (const route of model.routes) {
    const adapter = deps.providers[route.providerType];
    if (!adapter) continue;
    const cap = first && firstRoute !== 'unchecked' ? firstRoute : await admitRoute(route, deps, settings);
    first = false;
    if (!cap.ok) {
      walk.refusal = pickRefusal(walk.refusal, cap);
      continue;
    }
    walk.tried++;
    walk.last = route;
    const native = adapter.nativeCalls?.[call.format];
    const plan = native ? deps.formats[call.format].preparePassthrough(asObject(call.body)) : undefined;
    const target = await targetFor(route, deps);
    const upstreamCall: UpstreamCall =
      native && plan ? native(plan.body, target) : await adapter.buildRequest(canonical, target);
    const result = await fetchUpstream(deps.fetch, upstreamCall, {
      timeoutMs: settings.upstreamTimeoutMs,
      clientSignal: call.signal,
      now: deps.now,
    });
    if (!result.ok) {
      if (result.reason === 'client_aborted') throw new ClientGoneError({ attempts: walk.tried, route });
      if (result.reason === 'timeout') walk.timedOut++;
      walk.lastFailure = `${route.providerName}: ${result.message}`;
      continue;
    }
    if (result.response.ok) {
      return {
        route,
        upstream: result.response,
        mode: native ? 'native' : 'translate',
        adapter,
        attempts: walk.tried,
        upstreamLatencyMs: result.latencyMs,
        plan,
        abortUpstream: result.abort,
      };
    }
    const failure = adapter.mapError(result.response.status, await result.response.text());
    if (!failure.retryable) throw clientFacingError(failure, route);
    walk.lastFailure = `${route.providerName}: ${failure.status} ${failure.message}`;
  }
  throw exhausted(model, walk);
}

async function admitRoute(
  route: ResolvedRoute,
  deps: ProxyDeps,
  settings: ProxySettings,
): Promise<RouteCapDecision | Refusal> {
  if (route.routeId === null) return { ok: true };
  try {
    return await deps.routeCaps.admit(
      { routeId: route.routeId, rpmCap: route.rpmCap, tpmCap: route.tpmCap },
      deps.now(),
    );
  } catch (error) {
    // Route caps follow security.rate_limit_fail_closed like every other limit.
    deps.warn('route caps unavailable', { error: String(error), failClosed: settings.rateLimitFailClosed });
    return settings.rateLimitFailClosed ? UNAVAILABLE : { ok: true };
  }
}

/** Of several capped routes, the one that frees up first decides the Retry-After. */
function pickRefusal(current: Refusal | null, next: Refusal): Refusal {
  return current === null || next.retryAfterSeconds < current.retryAfterSeconds ? next : current;
}

export async function targetFor(route: ResolvedRoute, deps: ProxyDeps): Promise<UpstreamTarget> {
  return {
    baseUrl: route.baseUrl,
    apiKey: await deps.revealProviderKey(route.apiKeyEncrypted),
    upstreamModel: route.upstreamModel,
    config: route.config,
  };
}

function asObject(body: unknown): Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : {};
}

const CLIENT_STATUSES = new Set<number>([400, 404, 413, 422]);

/**
 * An upstream 4xx the client caused goes back with its status and the vendor's message. The
 * gateway's own provider credentials being refused is not the client's fault: 502.
 */
export function clientFacingError(failure: UpstreamError, route: ResolvedRoute): AppError {
  if (CLIENT_STATUSES.has(failure.status)) {
    return new AppError(failure.status as ErrorStatus, failure.message, { type: failure.type });
  }
  if (failure.status === 401 || failure.status === 403) {
    return new AppError(502, `Upstream ${route.providerName} refused the gateway's credentials`);
  }
  return new AppError(400, failure.message, { type: failure.type });
}

function exhausted(model: ResolvedModel, walk: RouteWalk): AppError {
  if (walk.tried === 0 && walk.refusal) {
    return new AppError(429, `Rate limited: ${walk.refusal.label}`, {
      headers: { 'Retry-After': String(walk.refusal.retryAfterSeconds) },
    });
  }
  const message = `All routes failed for model ${model.name} (last: ${walk.lastFailure})`;
  // Every upstream tried was silent: a gateway timeout, not a bad answer.
  if (walk.tried > 0 && walk.timedOut === walk.tried) return new AppError(504, message);
  return new AppError(502, message);
}
