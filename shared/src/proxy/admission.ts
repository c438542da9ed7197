import { mayUseModel, type Principal } from '../auth/gateway/principal';
import type { ProviderAdapter } from '../canonical/ports';
import type { ModelKind } from '../db/schema/providers';
import { AppError, tooManyRequests } from '../http/app-error';
import { limitSubject } from '../limits/definitions';
import type { FirstRouteCheck } from '../limits/gate';
import { reservationTokens, type TokenEstimate } from '../limits/reservation';
import type { CounterAddition } from '../limits/sliding-window';
import type { HealthSnapshot } from '../routing/route-health-tracker';
import { orderRoutes } from '../routing/route-order';
import { NO_SPAN } from '../telemetry/span';
import type { CachedAnswer, CacheShape } from './response-cache';
import type { ProxyCall, ProxyDeps, ProxySettings, ResolvedModel, ResolvedRoute } from './types';

/** Reloads after the gate found the caches out of date, before it admits on what is loaded. */
const MAX_RELOADS = 2;

/** What the request was admitted with. */
export interface Admitted {
  principal: Principal;
  model: ResolvedModel;
  settings: ProxySettings;
  cacheKey: string | null;
  headers: Record<string, string>;
  firstRoute: FirstRouteCheck;
  /** The bench as it was when the first route was chosen: the walk skips the same routes. */
  health: HealthSnapshot;
  /** The clock reading the first route was chosen at (route-attempts.ts WalkStart). */
  admittedAt: number;
  /** The model's routes in the order this request tries them (its strategy's). */
  routes: ResolvedRoute[];
  cached: CachedAnswer | null;
  /** What the request reserved on the limits; its settlement gives it back. */
  reserved: CounterAddition[];
  /** The user's team names, as the limits know them (for the trace). */
  teams?: string[];
}

/** What an endpoint serves and takes part in. */
export interface AdmissionUse {
  /** A model of the other kind is the client's mistake: a 400 before any limit counts. */
  kind: ModelKind;
  /** The response cache, for bodies of this shape; null: no part in it. */
  cacheAs: CacheShape | null;
  /** The gate checks (and counts) the caps of the first route the endpoint can use. */
  firstRouteCaps: boolean;
  /** Which providers can serve the request (default: every provider type the gateway has). */
  serves?(adapter: ProviderAdapter): boolean;
  /** Why, when no route's provider can: the client's 400, before any limit counts. */
  unserved?: string;
  /** What the request may use, reserved on token limits and budgets; absent: nothing reserved. */
  estimate?: TokenEstimate;
}

/**
 * Everything the gate needs comes from the isolate's caches; the gate's one round trip says
 * whether they are current. When they are not (a key, route, limit or setting changed), they
 * have been dropped: load again (authentication included) and ask again.
 */
export async function admit(
  call: ProxyCall,
  modelName: string,
  deps: ProxyDeps,
  use: AdmissionUse,
): Promise<Admitted> {
  const span = (call.span ?? NO_SPAN).child('sluice.admission');
  try {
    const admitted = await admitOnce(call, modelName, deps, use);
    if (span.recording) {
      span.setAll({
        'sluice.cache.hit': admitted.cached !== null,
        'sluice.route.first': admitted.routes[0]?.providerName,
        'sluice.budget.status': admitted.headers['x-sluice-budget-status'],
      });
      if (admitted.teams?.length) call.span?.set('sluice.teams', admitted.teams);
    }
    return admitted;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const label = /^Rate limited: (.+)$/.exec(message)?.[1];
    span.setAll({ 'sluice.limit': label, 'error.type': error instanceof AppError ? error.type : 'internal' });
    span.fail(message);
    throw error;
  } finally {
    span.end();
  }
}

async function admitOnce(
  call: ProxyCall,
  modelName: string,
  deps: ProxyDeps,
  use: AdmissionUse,
): Promise<Admitted> {
  let principal = call.principal;
  for (let round = 0; ; round++) {
    // Checked before the limits, so a refused model counts against nothing.
    if (!mayUseModel(principal, modelName)) throw new AppError(403, 'Model not allowed');
    const model = await deps.resolveModel(modelName, call.waitUntil);
    if (!model) throw new AppError(404, 'Model not found');
    refuseOtherKind(model, use.kind);
    if (use.serves && !firstUsableRoute(model.routes, deps, use.serves)) {
      const why = use.unserved ? ` (${use.unserved})` : '';
      throw new AppError(400, `No route of model ${model.name} can serve this request${why}`, {
        type: 'invalid_request_error',
      });
    }
    const settings = await deps.settings(call.waitUntil);
    const cacheKey = use.cacheAs ? await cacheKeyFor(call, use.cacheAs, principal, settings, deps) : null;
    const health = deps.routeHealth.snapshot(call.waitUntil);
    const nowMs = deps.now();
    const benched = (route: ResolvedRoute) => health.state(route.routeId).benchedUntil > nowMs;
    const routes = orderRoutes(model, deps.routeLatency);
    const first = use.firstRouteCaps ? firstUsableRoute(routes, deps, use.serves, benched) : undefined;
    const decision = await deps.gate.admit({
      subject: limitSubject(principal),
      route: first?.routeId ? { routeId: first.routeId, rpmCap: first.rpmCap, tpmCap: first.tpmCap } : null,
      cacheKey,
      failClosed: settings.rateLimitFailClosed,
      checkVersions: round < MAX_RELOADS,
      thresholds: settings.budgetThresholds,
      reserveTokens: use.estimate
        ? reservationTokens(use.estimate, model, settings.reservationOutputTokens)
        : 0,
      nowMs,
      background: call.waitUntil,
      timer: call.timer,
    });
    if (decision.kind === 'stale') {
      if (call.reauthenticate) principal = await call.reauthenticate();
      continue;
    }
    // Limits apply to cached answers like any other: a cache answer still counts as usage.
    if (decision.kind === 'refused') {
      noticeExhausted(decision.label, principal, deps, call);
      throw tooManyRequests(`Rate limited: ${decision.label}`, decision.retryAfterSeconds);
    }
    if (decision.budget && decision.budget.status !== 'ok') {
      const { status, scope, period, used, limit, resetsAt } = decision.budget;
      const alert = {
        level: status,
        scope,
        subjectId: subjectIdOf(scope, principal),
        period,
        used,
        limit,
        resetsAt,
      };
      deps.budgetAlerts.notice(alert, call.waitUntil);
    }
    const cached = decision.cached === null ? null : readCached(decision.cached, deps);
    return {
      principal,
      model,
      settings,
      cacheKey,
      headers: decision.headers,
      firstRoute: decision.firstRoute,
      health,
      admittedAt: nowMs,
      routes,
      cached,
      reserved: decision.reserved,
      teams: decision.teams,
    };
  }
}

/** An entry that is not a cached answer (written by something else, or cut short) is a miss. */
function readCached(stored: string, deps: ProxyDeps): CachedAnswer | null {
  const hit = deps.cache.parse(stored);
  if (!hit) deps.warn('response cache entry unreadable; calling upstream', { bytes: stored.length });
  return hit;
}

/** The key's id for a key-scoped budget, the owner's for a user-scoped one. */
function subjectIdOf(scope: string, principal: Principal): string {
  return scope === 'key' && principal.kind === 'api_key' ? principal.keyId : principal.userId;
}

/** A refusal by a budget (`<scope>:budget/<period>`) tells that the budget ran out. */
function noticeExhausted(label: string, principal: Principal, deps: ProxyDeps, call: ProxyCall): void {
  const match = /^(key|user):budget\/(\w+)$/.exec(label);
  if (!match) return;
  const [, scope = 'user', period = ''] = match;
  const alert = { level: 'exhausted' as const, scope, subjectId: subjectIdOf(scope, principal), period };
  deps.budgetAlerts.notice({ ...alert, used: null, limit: null, resetsAt: null }, call.waitUntil);
}

const WHAT_KIND_SERVES: Readonly<Record<ModelKind, string>> = {
  chat: 'a chat model: use /v1/chat/completions, /v1/messages or /v1/responses',
  embedding: 'an embedding model: use POST /v1/embeddings',
};

/** Direct addressing (`provider/model`) names no kind: the endpoint decides. */
function refuseOtherKind(model: ResolvedModel, kind: ModelKind): void {
  // Entries cached before models had a kind were all chat models.
  const modelKind = model.source === 'direct' ? null : (model.kind ?? 'chat');
  if (modelKind === null || modelKind === kind) return;
  throw new AppError(400, `Model ${model.name} is ${WHAT_KIND_SERVES[modelKind]}`, {
    type: 'invalid_request_error',
  });
}

/**
 * The route the router will try first: the first whose provider can serve the request, and
 * that is not benched.
 */
export function firstUsableRoute(
  routes: readonly ResolvedRoute[],
  deps: ProxyDeps,
  serves: (adapter: ProviderAdapter) => boolean = () => true,
  benched: (route: ResolvedRoute) => boolean = () => false,
): ResolvedRoute | undefined {
  return routes.find((route) => {
    const adapter = deps.providers[route.providerType];
    return adapter !== undefined && serves(adapter) && !benched(route);
  });
}

async function cacheKeyFor(
  call: ProxyCall,
  shape: CacheShape,
  principal: Principal,
  settings: ProxySettings,
  deps: ProxyDeps,
): Promise<string | null> {
  if (settings.cacheTtlSeconds <= 0 || !call.useCache()) return null;
  // Answers are cached as the rules then in force shaped them (redaction, removed tool calls).
  const scope = settings.answerRulesTag
    ? `${cacheScope(principal)}:${settings.answerRulesTag}`
    : cacheScope(principal);
  return deps.cache.keyFor(scope, shape, call.body);
}

/** Cached answers are private to the key that caused them (the user, for console JWTs). */
function cacheScope(principal: Principal): string {
  return principal.kind === 'api_key' ? `key:${principal.keyId}` : `user:${principal.userId}`;
}
