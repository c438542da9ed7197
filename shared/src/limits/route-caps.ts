import {
  type CounterAddition,
  type PreparedCounter,
  prepareSlidingLimit,
  type SlidingWindowEntry,
  type SlidingWindowLimit,
  type SlidingWindowLimiter,
  slidingBucketAt,
} from './sliding-window';

/**
 * Per-route RPM/TPM caps (requests and weighted tokens over a sliding minute), the port the gateway's
 * router calls for each route it tries. A capped route is skipped; when every remaining
 * route is capped the router answers 429 with the label and Retry-After of the decision.
 */

export interface RouteCapInput {
  routeId: string;
  rpmCap: number | null;
  tpmCap: number | null;
}

export type RouteCapLabel = 'route:requests/1m' | 'route:tokens/1m';

/** A refusal names the cap reached, or that the counters could not be reached (fail-closed). */
export type RouteCapDecision =
  | { ok: true }
  | { ok: false; label: RouteCapLabel | 'rate_limiter_unavailable'; retryAfterSeconds: number };

export interface RouteCaps {
  /** Counts 1 request if admitted; the TPM cap is checked here (tokens are counted later). */
  admit(route: RouteCapInput, nowMs: number): Promise<RouteCapDecision>;
  /**
   * Adds the response's weighted tokens to the route's TPM counter. Call it only for routes
   * with a TPM cap: it does not know the caps, and otherwise creates a counter nobody reads
   * (harmless, it expires after 61 s). Amounts ≤ 0 do not touch Redis.
   */
  addTokens(routeId: string, weightedTokens: number, nowMs: number): Promise<void>;
}

export const ROUTE_CAP_WINDOW_MS = 60_000;
export const ROUTE_CAP_BUCKET_MS = 1_000;
export const DEFAULT_LIMIT_KEY_PREFIX = 'sluice:rl';

/** Every cap counts over the same sliding minute. */
const CAP_WINDOW = { windowMs: ROUTE_CAP_WINDOW_MS, bucketMs: ROUTE_CAP_BUCKET_MS } as const;

export function routeCapKeys(
  routeId: string,
  keyPrefix = DEFAULT_LIMIT_KEY_PREFIX,
): { req: string; tok: string } {
  const base = `${keyPrefix}:route:${routeId}`;
  return { req: `${base}:req`, tok: `${base}:tok` };
}

/** The limits admit() checks for a route; empty when the route has no caps. */
export function routeCapLimits(
  route: RouteCapInput,
  keyPrefix = DEFAULT_LIMIT_KEY_PREFIX,
): SlidingWindowLimit[] {
  const keys = routeCapKeys(route.routeId, keyPrefix);
  const limits: SlidingWindowLimit[] = [];
  if (route.rpmCap !== null) {
    limits.push({ label: 'route:requests/1m', key: keys.req, ...CAP_WINDOW, limit: route.rpmCap, cost: 1 });
  }
  if (route.tpmCap !== null) {
    limits.push({ label: 'route:tokens/1m', key: keys.tok, ...CAP_WINDOW, limit: route.tpmCap, cost: 0 });
  }
  return limits;
}

/** The caps of a route as counters for the admission script (limits/admission-script.ts). */
export function routeCapCounters(
  route: RouteCapInput,
  nowMs: number,
  keyPrefix = DEFAULT_LIMIT_KEY_PREFIX,
): PreparedCounter[] {
  return routeCapLimits(route, keyPrefix).map((limit) => prepareSlidingLimit(limit, nowMs));
}

/** A response's weighted tokens for the route's TPM counter, as the write-behind adds them. */
export function routeTokenAddition(
  routeId: string,
  weightedTokens: number,
  nowMs: number,
  keyPrefix = DEFAULT_LIMIT_KEY_PREFIX,
): CounterAddition {
  const tokens = { key: routeCapKeys(routeId, keyPrefix).tok, ...CAP_WINDOW };
  return { ...slidingBucketAt(tokens, nowMs), amount: weightedTokens };
}

export function createRouteCaps(
  limiter: SlidingWindowLimiter,
  options: { keyPrefix?: string } = {},
): RouteCaps {
  const keyPrefix = options.keyPrefix ?? DEFAULT_LIMIT_KEY_PREFIX;
  return {
    async admit(route, nowMs) {
      const limits = routeCapLimits(route, keyPrefix);
      if (limits.length === 0) return { ok: true };
      const result = await limiter.check(limits, nowMs);
      if (result.allowed) return { ok: true };
      return {
        ok: false,
        label: result.refusedBy as RouteCapLabel,
        retryAfterSeconds: result.retryAfterSeconds,
      };
    },
    async addTokens(routeId, weightedTokens, nowMs) {
      if (!(weightedTokens > 0)) return;
      const entry: SlidingWindowEntry = {
        key: routeCapKeys(routeId, keyPrefix).tok,
        ...CAP_WINDOW,
        amount: weightedTokens,
      };
      await limiter.add([entry], nowMs);
    },
  };
}
