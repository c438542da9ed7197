import type { BoardPart } from '../runtime/version-board';
import type { WriteBehind } from '../runtime/write-behind';
import type { RedisPort } from '../stores/redis-port';
import type { Background } from '../util/background';
import { withDeadline } from '../util/deadline';
import { afterOutcome, type LocalRouteState, mergedState } from './local-bench';
import {
  type BenchPolicy,
  HEALTHY,
  parseRouteHealth,
  ROUTE_HEALTH_KEY,
  ROUTE_HEALTH_SCRIPT,
  ROUTE_HEALTH_VERSION_KEY,
  type RouteState,
} from './route-health';

/** The bench as an isolate knows it at one moment. */
export interface HealthSnapshot {
  state(routeId: string | null): RouteState;
}

export interface RouteHealth {
  /**
   * What the isolate knows now, never waiting: when the bench moved (version board) or the
   * snapshot is old, a reload goes to `background` and the next requests see it.
   */
  snapshot(background: Background): HealthSnapshot;
  /** Joins the isolate's next write-behind flush; `keepAlive` gets the flush it opens. */
  report(routeId: string, outcome: 'failed' | 'succeeded', keepAlive: Background): void;
}

export interface RouteHealthDeps {
  redis: Pick<RedisPort, 'hgetall'>;
  writeBehind: WriteBehind;
  /** The version part that moves when a route is benched or recovers. */
  part: BoardPart;
  policy: BenchPolicy;
  timeoutMs: number;
  /** A snapshot this old is reloaded even without a move (a move missed while Redis was down). */
  refreshAfterMs?: number;
  now?: () => number;
  onError(what: string, error: unknown): void;
}

/**
 * Route benching for one isolate (routing/route-health.ts has the rule). Failures are
 * counted in the store, through the write-behind flush that already carries token counts, so
 * a failing route costs no round trip of its own; the bench itself is read once per move of
 * its version, which every admission reply carries. A healthy route's successes are not
 * reported at all: only a route on the bench or on probation needs one to recover. The isolate
 * also applies its own outcomes to its own copy at once (local-bench.ts), so a burst against a
 * dead route tries it at most the policy's count plus one here, before any flush.
 */
export function createRouteHealth(deps: RouteHealthDeps): RouteHealth {
  const now = deps.now ?? Date.now;
  const refreshAfterMs = deps.refreshAfterMs ?? 30_000;
  let states = new Map<string, RouteState>();
  let loadedGeneration = -1;
  let loadedAt = Number.NEGATIVE_INFINITY;
  let loading: Promise<void> | null = null;
  /** Outcomes since the last flush, in order; repeats of one route's outcome merged. */
  let pending: Array<[routeId: string, outcome: 'f' | 's', count: number]> = [];
  /** This isolate's own outcomes, applied as they happen. */
  const local = new Map<string, LocalRouteState>();

  const reload = async (): Promise<void> => {
    const generation = deps.part.generation();
    try {
      const stored = await withDeadline(deps.redis.hgetall(ROUTE_HEALTH_KEY), deps.timeoutMs, 'route health');
      states = parseRouteHealth(stored as Record<string, unknown> | null);
      loadedGeneration = generation;
      loadedAt = now();
    } catch (error) {
      deps.onError('route health', error);
      // Tried: not again before the refresh interval (the bench as last known serves).
      loadedGeneration = generation;
      loadedAt = now();
    } finally {
      loading = null;
    }
  };

  deps.writeBehind.register({
    drain() {
      if (pending.length === 0) return [];
      const reports = pending;
      pending = [];
      const { policy } = deps;
      return [
        {
          call: {
            script: ROUTE_HEALTH_SCRIPT,
            keys: [ROUTE_HEALTH_KEY, ROUTE_HEALTH_VERSION_KEY],
            args: [
              now(),
              policy.failures,
              policy.windowMs,
              policy.cooldownMs,
              policy.maxCooldownMs,
              ...reports.flat(),
            ],
          },
          done: (outcome) => (outcome.ok ? undefined : deps.onError('route health report', outcome.error)),
        },
      ];
    },
  });

  return {
    snapshot(background) {
      const moved = deps.part.generation() !== loadedGeneration;
      if (!loading && (moved || now() - loadedAt > refreshAfterMs)) {
        loading = reload();
        background(loading);
      }
      const current = states;
      return {
        state: (routeId) =>
          routeId === null ? HEALTHY : mergedState(current.get(routeId), local.get(routeId)),
      };
    },
    report(routeId, outcome, keepAlive) {
      const at = now();
      const base = local.get(routeId) ?? { ...(states.get(routeId) ?? HEALTHY), since: at };
      local.set(routeId, afterOutcome(base, outcome, at, deps.policy));
      const code = outcome === 'failed' ? 'f' : 's';
      const last = pending.at(-1);
      if (last && last[0] === routeId && last[1] === code) last[2]++;
      else pending.push([routeId, code, 1]);
      void deps.writeBehind.schedule(keepAlive);
    },
  };
}
