import type { ProviderAdapter, UpstreamTarget } from '../canonical/ports';
import type { UpstreamError } from '../canonical/types';
import { AppError, type ErrorStatus } from '../http/app-error';
import type { FirstRouteCheck } from '../limits/gate';
import type { RouteCapDecision } from '../limits/route-caps';
import { knownMaxOutputTokens } from '../routing/output-caps';
import type { HealthSnapshot } from '../routing/route-health-tracker';
import { operationOf, routeAttributes } from '../telemetry/gen-ai';
import { NO_SPAN, type Span } from '../telemetry/span';
import type { Background } from '../util/background';
import type { ModelEndpoint, ProxyDeps, ProxySettings, ResolvedModel, ResolvedRoute } from './types';
import type { FetchFailure } from './upstream-fetch';

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
  /** The soonest end of a bench among the routes skipped for one (0: none skipped). */
  benchEndsAt: number;
  /** Of those tried, how many gave no headers within the first-byte timeout. */
  timedOut: number;
  last: ResolvedRoute | null;
  refusal: Refusal | null;
  lastFailure: string;
}

/** How one endpoint calls a route: which providers can serve its request, and the call. */
export interface RouteCaller<T> {
  /** False: this provider cannot serve the request; its routes are passed over, caps untouched. */
  serves(adapter: ProviderAdapter): boolean;
  /** `span` is the attempt's: its `traceparent` goes on the upstream call. */
  call(route: ResolvedRoute, adapter: ProviderAdapter, span: Span): Promise<RouteAnswer<T>>;
}

export type RouteAnswer<T> =
  | { ok: true; value: T }
  /** No answer: connect error, timeout, the client left. */
  | { ok: false; failed: FetchFailure }
  /** The vendor's refusal, mapped by its adapter. */
  | { ok: false; refused: UpstreamError };

/** Where the walk starts from: the admission's decisions, and who keeps its reports alive. */
export interface WalkStart {
  /** The gate's check of the first route's caps. */
  firstRoute: FirstRouteCheck;
  /** The bench the admission chose the first route by. */
  health: HealthSnapshot;
  /**
   * The admission's clock reading, which the bench was read at: the walk reads it at the same
   * instant, so the route the gate checked is the route it starts with, even when a bench ends
   * during the gate's round trip.
   */
  admittedAt: number;
  /** The routes in the order the admission chose (the model's strategy). */
  routes: readonly ResolvedRoute[];
  /** Keeps the outcome reports' write-behind flush alive (waitUntil). */
  keepAlive: Background;
  /** The request's span: each attempt is a client span under it. */
  span?: Span;
  /** The endpoint, for the attempt spans' gen_ai.operation.name. */
  endpoint?: ModelEndpoint;
}

export interface RouteSuccess<T> {
  value: T;
  route: ResolvedRoute;
  attempts: number;
  /** The answering attempt's span, still open: the caller ends it when the answer is read. */
  span: Span;
}

/**
 * Tries the model's routes in order. A route is skipped when its cap is reached, and left
 * for the next one when the upstream fails in a way another upstream might not (connect
 * error, timeout, 429, 5xx). Nothing has reached the client yet at this point, so moving on
 * is always safe. Other upstream refusals are the client's to see. The first route the
 * caller can use had its caps checked (and counted) by the gate in the admission round trip.
 */
export async function callFirstWorkingRoute<T>(
  model: ResolvedModel,
  deps: ProxyDeps,
  settings: ProxySettings,
  start: WalkStart,
  caller: RouteCaller<T>,
): Promise<RouteSuccess<T>> {
  const walk: RouteWalk = {
    tried: 0,
    benchEndsAt: 0,
    timedOut: 0,
    last: null,
    refusal: null,
    lastFailure: 'no usable route',
  };
  try {
    return await walkRoutes(model, deps, settings, start, walk, caller);
  } catch (error) {
    const trace = { attempts: walk.tried, route: walk.last };
    throw error instanceof AppError ? new RoutesFailedError(error, trace) : error;
  }
}

async function walkRoutes<T>(
  model: ResolvedModel,
  deps: ProxyDeps,
  settings: ProxySettings,
  { firstRoute, health, keepAlive, routes, admittedAt, span: parent = NO_SPAN, endpoint }: WalkStart,
  walk: RouteWalk,
  caller: RouteCaller<T>,
): Promise<RouteSuccess<T>> {
  let first = true;
  const nowMs = admittedAt;
  for (const route of routes) {
    const adapter = deps.providers[route.providerType];
    if (!adapter || !caller.serves(adapter)) continue;
    const state = health.state(route.routeId);
    if (state.benchedUntil > nowMs) {
      walk.benchEndsAt =
        walk.benchEndsAt === 0 ? state.benchedUntil : Math.min(walk.benchEndsAt, state.benchedUntil);
      continue;
    }
    const cap = first && firstRoute !== 'unchecked' ? firstRoute : await admitRoute(route, deps, settings);
    first = false;
    if (!cap.ok) {
      walk.refusal = pickRefusal(walk.refusal, cap);
      continue;
    }
    walk.tried++;
    walk.last = route;
    const calledAt = deps.now();
    const span = parent.recording
      ? attemptSpan(parent, endpoint ?? '/v1/chat/completions', route, walk.tried)
      : parent;
    const answer = await caller.call(route, adapter, span);
    const report = (outcome: 'failed' | 'succeeded') => {
      if (route.routeId !== null) deps.routeHealth.report(route.routeId, outcome, keepAlive);
    };
    if (answer.ok) {
      // Only a route that is recovering needs to say so; a healthy one's successes cost nothing.
      if (state.level > 0) report('succeeded');
      if (route.routeId !== null) deps.routeLatency.observe(route.routeId, deps.now() - calledAt);
      return { value: answer.value, route, attempts: walk.tried, span };
    }
    if ('failed' in answer) {
      const { failed } = answer;
      endAttempt(span, failed.reason, failed.message);
      if (failed.reason === 'client_aborted') throw new ClientGoneError({ attempts: walk.tried, route });
      if (failed.reason === 'timeout') walk.timedOut++;
      report('failed');
      walk.lastFailure = `${route.providerName}: ${failed.message}`;
      continue;
    }
    const { refused } = answer;
    span.set('http.response.status_code', refused.status);
    endAttempt(span, refused.retryable ? 'upstream_retryable' : 'upstream_refused', refused.message);
    if (!refused.retryable) throw clientFacingError(refused, route);
    report('failed');
    walk.lastFailure = `${route.providerName}: ${refused.status} ${refused.message}`;
  }
  throw exhausted(model, walk, nowMs);
}

/** An upstream call, as the GenAI conventions name a client span: `{operation} {model}`. */
function attemptSpan(parent: Span, endpoint: ModelEndpoint, route: ResolvedRoute, attempt: number): Span {
  const name = `${operationOf(endpoint)} ${route.upstreamModel}`;
  return parent.child(name, 'client', routeAttributes(endpoint, route, attempt));
}

/** A failed attempt's span: why the walk moved on (or stopped) is its fallback reason. */
function endAttempt(span: Span, reason: string, message: string): void {
  if (!span.recording) return;
  span.setAll({ 'error.type': reason, 'sluice.fallback.reason': message }).fail(message).end();
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

/** What the call is for: the model's settings, and the client's headers to forward from. */
export interface TargetContext {
  model?: Pick<ResolvedModel, 'maxOutputTokens' | 'cacheBreakpoints'>;
  headers?: Headers;
}

export async function targetFor(
  route: ResolvedRoute,
  deps: ProxyDeps,
  context: TargetContext = {},
): Promise<UpstreamTarget> {
  const target: UpstreamTarget = {
    baseUrl: route.baseUrl,
    apiKey: await deps.revealProviderKey(route.apiKeyEncrypted),
    upstreamModel: route.upstreamModel,
    config: route.config,
  };
  const maxOutputTokens = context.model?.maxOutputTokens ?? knownMaxOutputTokens(route.upstreamModel);
  if (maxOutputTokens !== undefined) target.maxOutputTokens = maxOutputTokens;
  if (context.model?.cacheBreakpoints) target.cacheBreakpoints = true;
  if (context.headers) target.clientHeaders = context.headers;
  return target;
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

function exhausted(model: ResolvedModel, walk: RouteWalk, nowMs: number): AppError {
  if (walk.tried === 0 && walk.refusal) {
    return new AppError(429, `Rate limited: ${walk.refusal.label}`, {
      headers: { 'Retry-After': String(walk.refusal.retryAfterSeconds) },
    });
  }
  if (walk.tried === 0 && walk.benchEndsAt > 0) {
    const seconds = Math.max(1, Math.ceil((walk.benchEndsAt - nowMs) / 1000));
    return new AppError(
      503,
      `Every route of model ${model.name} is benched after repeated failures; the next is tried again in ${seconds} s`,
      { headers: { 'Retry-After': String(seconds) } },
    );
  }
  const message = `All routes failed for model ${model.name} (last: ${walk.lastFailure})`;
  // Every upstream tried was silent: a gateway timeout, not a bad answer.
  if (walk.tried > 0 && walk.timedOut === walk.tried) return new AppError(504, message);
  return new AppError(502, message);
}
