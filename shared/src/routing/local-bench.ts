import { type BenchPolicy, HEALTHY, type RouteState } from './route-health';

/** A route's state as one isolate counts it, with the start of its failure window. */
export interface LocalRouteState extends RouteState {
  since: number;
}

/**
 * The bench rule of ROUTE_HEALTH_SCRIPT (route-health.ts), applied to one outcome in the
 * isolate that saw it: the gateway that sees a route fail benches it for itself at once,
 * while the store's copy (shared with every other gateway) waits for the next flush.
 */
export function afterOutcome(
  state: LocalRouteState,
  outcome: 'failed' | 'succeeded',
  now: number,
  policy: BenchPolicy,
): LocalRouteState {
  if (outcome === 'succeeded') return { ...HEALTHY, since: now };
  // Failures while benched are requests sent before the bench was known.
  if (state.benchedUntil > now) return state;
  if (state.level > 0) {
    const level = state.level + 1;
    const benchedUntil = now + Math.min(policy.maxCooldownMs, policy.cooldownMs * 2 ** (level - 1));
    return { level, benchedUntil, failures: 0, since: now };
  }
  const fresh = now - state.since > policy.windowMs;
  const failures = (fresh ? 0 : state.failures) + 1;
  const since = fresh ? now : state.since;
  if (failures < policy.failures) return { ...state, failures, since };
  return { level: 1, benchedUntil: now + policy.cooldownMs, failures: 0, since: now };
}

/** Of the store's state and the isolate's own, the one benched longer. */
export function mergedState(stored: RouteState | undefined, local: LocalRouteState | undefined): RouteState {
  if (!local) return stored ?? HEALTHY;
  if (!stored) return local;
  return local.benchedUntil >= stored.benchedUntil ? local : stored;
}
