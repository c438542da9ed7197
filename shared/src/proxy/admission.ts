import { mayUseModel, type Principal } from '../gateway/principal';
import { AppError, tooManyRequests } from '../http/app-error';
import { limitSubject } from '../limits/definitions';
import type { FirstRouteCheck } from '../limits/gate';
import type { CachedAnswer } from './response-cache';
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
  cached: CachedAnswer | null;
}

/** What a call takes part in: the response cache, and the first route's caps. */
export interface AdmissionUse {
  cache: boolean;
  firstRouteCaps: boolean;
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
  let principal = call.principal;
  for (let round = 0; ; round++) {
    // Checked before the limits, so a refused model counts against nothing.
    if (!mayUseModel(principal, modelName)) throw new AppError(403, 'Model not allowed');
    const model = await deps.resolveModel(modelName, call.waitUntil);
    if (!model) throw new AppError(404, 'Model not found');
    const settings = await deps.settings(call.waitUntil);
    const cacheKey = use.cache ? await cacheKeyFor(call, principal, settings, deps) : null;
    const first = use.firstRouteCaps ? firstUsableRoute(model, deps) : undefined;
    const decision = await deps.gate.admit({
      subject: limitSubject(principal),
      route: first?.routeId ? { routeId: first.routeId, rpmCap: first.rpmCap, tpmCap: first.tpmCap } : null,
      cacheKey,
      failClosed: settings.rateLimitFailClosed,
      checkVersions: round < MAX_RELOADS,
      nowMs: deps.now(),
      background: call.waitUntil,
    });
    if (decision.kind === 'stale') {
      if (call.reauthenticate) principal = await call.reauthenticate();
      continue;
    }
    // Limits apply to cached answers like any other (spec rule 6).
    if (decision.kind === 'refused') {
      throw tooManyRequests(`Rate limited: ${decision.label}`, decision.retryAfterSeconds);
    }
    const cached = decision.cached === null ? null : readCached(decision.cached, deps);
    return {
      principal,
      model,
      settings,
      cacheKey,
      headers: decision.headers,
      firstRoute: decision.firstRoute,
      cached,
    };
  }
}

/** An entry that is not a cached answer (written by something else, or cut short) is a miss. */
function readCached(stored: string, deps: ProxyDeps): CachedAnswer | null {
  const hit = deps.cache.parse(stored);
  if (!hit) deps.warn('response cache entry unreadable; calling upstream', { bytes: stored.length });
  return hit;
}

/** The route the router will try first: the first whose provider type the gateway serves. */
export function firstUsableRoute(model: ResolvedModel, deps: ProxyDeps): ResolvedRoute | undefined {
  return model.routes.find((route) => deps.providers[route.providerType] !== undefined);
}

async function cacheKeyFor(
  call: ProxyCall,
  principal: Principal,
  settings: ProxySettings,
  deps: ProxyDeps,
): Promise<string | null> {
  if (!call.useCache || settings.cacheTtlSeconds <= 0) return null;
  return deps.cache.keyFor(cacheScope(principal), call.format, call.body);
}

/** Cached answers are private to the key that caused them (the user, for console JWTs). */
function cacheScope(principal: Principal): string {
  return principal.kind === 'api_key' ? `key:${principal.keyId}` : `user:${principal.userId}`;
}
