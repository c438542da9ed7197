import type { ResolvedModel, ResolvedRoute } from './resolve';

/** How fast each route has answered lately, as one isolate has seen it. */
export interface RouteLatency {
  /** Time from the call to the upstream's answer (headers), in ms. */
  observe(routeId: string, ms: number): void;
  /** The moving average; undefined for a route not seen yet. */
  estimate(routeId: string): number | undefined;
}

/** Weight of the newest observation in the moving average. */
const LATENCY_ALPHA = 0.2;
const MAX_ROUTES_TRACKED = 10_000;
/** least_latency: this share of requests ignores the estimates, so slower routes are measured again. */
export const EXPLORE_SHARE = 0.05;

export function createRouteLatency(): RouteLatency {
  const averages = new Map<string, number>();
  return {
    observe(routeId, ms) {
      const previous = averages.get(routeId);
      if (previous === undefined && averages.size >= MAX_ROUTES_TRACKED) averages.clear();
      averages.set(routeId, previous === undefined ? ms : previous + LATENCY_ALPHA * (ms - previous));
    },
    estimate: (routeId) => averages.get(routeId),
  };
}

/**
 * The order one request tries the model's routes in. `ordered`: by position. `weighted`: the
 * first drawn in proportion to the routes' `weight`, the rest by position as its fallbacks.
 * `least_latency`: the fastest by this isolate's moving average first (a route not measured
 * yet counts as fastest, so each is tried), except for a small share of requests drawn at
 * random, which keeps the slower routes' figures current. Caps, benches and the provider's
 * support are checked as the routes are walked, whatever the order.
 */
export function orderRoutes(
  model: ResolvedModel,
  latency: RouteLatency,
  random: () => number = Math.random,
): ResolvedRoute[] {
  const { routes } = model;
  if (routes.length < 2 || model.strategy === 'ordered') return routes;
  let first: number;
  if (model.strategy === 'weighted') {
    first = drawByWeight(routes, random());
  } else if (random() < EXPLORE_SHARE) {
    first = Math.floor(random() * routes.length);
  } else {
    first = fastest(routes, latency);
  }
  return first === 0 ? routes : [routes[first] as ResolvedRoute, ...routes.filter((_, i) => i !== first)];
}

function drawByWeight(routes: readonly ResolvedRoute[], draw: number): number {
  const total = routes.reduce((sum, route) => sum + Math.max(0, route.weight), 0);
  if (total <= 0) return 0;
  let point = draw * total;
  for (let i = 0; i < routes.length; i++) {
    point -= Math.max(0, (routes[i] as ResolvedRoute).weight);
    if (point < 0) return i;
  }
  return routes.length - 1;
}

function fastest(routes: readonly ResolvedRoute[], latency: RouteLatency): number {
  let best = 0;
  let bestMs = Number.POSITIVE_INFINITY;
  routes.forEach((route, i) => {
    const ms = route.routeId === null ? undefined : latency.estimate(route.routeId);
    const value = ms ?? 0;
    if (value < bestMs) {
      best = i;
      bestMs = value;
    }
  });
  return best;
}
