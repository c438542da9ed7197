import { runScript } from '../stores/lua-script';
import type { RedisPort } from '../stores/redis-port';
import { ADD_SCRIPT, CHECK_SCRIPT } from './sliding-window-scripts';

/**
 * Exact-to-one-bucket sliding-window limits over Redis (in the manner of upstash/ratelimit-js:
 * algorithms over a Redis port, all atomic work in Lua). One script call checks a list of
 * limits and counts the request only if all of them pass.
 *
 * Storage: one hash per limit key, a field per bucket (index = floor(nowMs / bucketMs)).
 * Usage = the current bucket plus the previous N − 1 (N = windowMs / bucketMs), so a count
 * leaves the window at the start of bucket index + N: at most one bucket late, never early.
 * Hashes expire window + bucket after their last write; fields that left the window are
 * dropped on write.
 *
 * Time: `nowMs` is passed by the caller (Date.now() on the hot path; tests control time)
 * rather than read from Redis TIME, so bucket maths happens once, in TypeScript, and the
 * scripts only see integers. Isolates with skewed clocks still share buckets; a bucket ahead
 * of a caller's clock is counted by it, so skew can make a limit stricter, never looser.
 * Key expiry uses Redis's own clock; it only reclaims memory and is longer than any window.
 */

export interface SlidingWindowLimit {
  /** Names the limit in refusals and states, e.g. "route:requests/1m". */
  label: string;
  /** The Redis key of this limit's hash. Give each counter × window its own key. */
  key: string;
  windowMs: number;
  /** Bucket width; windowMs must be a whole multiple of it (e.g. windowMs / 60). */
  bucketMs: number;
  limit: number;
  /** Added if every limit passes: 1 for request limits, 0 for token limits (checked only). */
  cost: number;
}

export interface SlidingWindowState {
  label: string;
  /** Usage in the window; after counting when allowed, as found when refused. */
  used: number;
  limit: number;
  /** Milliseconds until all of `used` has left the window (0 when nothing is used). */
  resetMs: number;
}

export type SlidingWindowResult =
  | { allowed: true; states: SlidingWindowState[] }
  | { allowed: false; refusedBy: string; retryAfterSeconds: number; states: SlidingWindowState[] };

export interface SlidingWindowEntry {
  key: string;
  windowMs: number;
  bucketMs: number;
  /** Non-integer amounts are rounded up (weighted tokens never under-count). */
  amount: number;
}

export interface SlidingWindowLimiter {
  /** One script call: checks every limit, counts `cost` on each only if all pass. */
  check(limits: readonly SlidingWindowLimit[], nowMs: number): Promise<SlidingWindowResult>;
  /** One script call: adds amounts (e.g. tokens after a response) without checking. */
  add(entries: readonly SlidingWindowEntry[], nowMs: number): Promise<void>;
}

/** The geometry of one window: bucket width, bucket count, current bucket. */
export interface WindowGeometry {
  bucketMs: number;
  bucketsInWindow: number;
  current: number;
}

export function windowGeometry(windowMs: number, bucketMs: number, nowMs: number): WindowGeometry {
  if (!Number.isSafeInteger(bucketMs) || bucketMs <= 0) {
    throw new RangeError(`bucketMs must be a positive integer, got ${bucketMs}`);
  }
  if (!Number.isSafeInteger(windowMs) || windowMs < bucketMs || windowMs % bucketMs !== 0) {
    throw new RangeError(`windowMs (${windowMs}) must be a positive multiple of bucketMs (${bucketMs})`);
  }
  if (!Number.isFinite(nowMs) || nowMs < 0) throw new RangeError(`nowMs must be a time, got ${nowMs}`);
  return { bucketMs, bucketsInWindow: windowMs / bucketMs, current: Math.floor(nowMs / bucketMs) };
}

/** When bucket `index` stops counting: the start of bucket index + N. */
export function bucketLeavesAtMs(index: number, g: Pick<WindowGeometry, 'bucketMs' | 'bucketsInWindow'>) {
  return (index + g.bucketsInWindow) * g.bucketMs;
}

/** Whether usage admits a request of this cost: used + cost ≤ limit, or used < limit for cost 0. */
export function fits(used: number, limit: number, cost: number): boolean {
  return cost > 0 ? used + cost <= limit : used < limit;
}

/**
 * Milliseconds from nowMs until enough of the counted buckets have left the window for a
 * request of `cost` to fit; null when it can never fit (cost > limit, or limit ≤ 0).
 * `buckets` are the [index, count] pairs inside the window, in any order.
 */
export function retryAfterMs(
  buckets: ReadonlyArray<readonly [number, number]>,
  g: Pick<WindowGeometry, 'bucketMs' | 'bucketsInWindow'>,
  limit: number,
  cost: number,
  nowMs: number,
): number | null {
  let used = buckets.reduce((sum, [, count]) => sum + count, 0);
  if (fits(used, limit, cost)) return 0;
  if (!fits(0, limit, cost)) return null;
  const oldestFirst = [...buckets].sort((a, b) => a[0] - b[0]);
  for (const [index, count] of oldestFirst) {
    used -= count;
    if (fits(used, limit, cost)) return Math.max(0, bucketLeavesAtMs(index, g) - nowMs);
  }
  return null; // unreachable: with every bucket gone, used is 0 and fits(0) held
}

/** Retry-After header value: whole seconds, at least 1. */
export function toRetryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** Milliseconds until the newest counted bucket (and so all usage) has left the window. */
export function resetMsFor(
  newest: number,
  g: Pick<WindowGeometry, 'bucketMs' | 'bucketsInWindow'>,
  nowMs: number,
) {
  return newest < 0 ? 0 : Math.max(0, bucketLeavesAtMs(newest, g) - nowMs);
}

/** Whole, non-negative counts only: Redis HINCRBY takes integers. */
function toCount(value: number, what: string): number {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${what} must be ≥ 0, got ${value}`);
  return Math.ceil(value);
}

/** Per limit as the check script replies: [used, newest, [idx, count, ...]]. */
type ScriptState = [number | string, number | string, Array<number | string>];

function pairs(flat: ReadonlyArray<number | string>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push([Number(flat[i]), Number(flat[i + 1])]);
  return out;
}

export function createSlidingWindowLimiter(redis: RedisPort): SlidingWindowLimiter {
  return {
    async check(limits, nowMs) {
      if (limits.length === 0) return { allowed: true, states: [] };
      const seen = new Set<string>();
      const keys: string[] = [];
      const args: number[] = [limits.length];
      const prepared = limits.map((l) => {
        if (seen.has(l.key)) throw new Error(`sliding-window check: key ${l.key} appears twice`);
        seen.add(l.key);
        const g = windowGeometry(l.windowMs, l.bucketMs, nowMs);
        const limit = toCount(l.limit, 'limit');
        const cost = toCount(l.cost, 'cost');
        keys.push(l.key);
        args.push(g.current, g.bucketsInWindow, limit, cost, l.windowMs + l.bucketMs);
        return { label: l.label, windowMs: l.windowMs, g, limit, cost };
      });
      const [allowedFlag, ...raw] = await runScript<[number | string, ...ScriptState[]]>(
        redis,
        CHECK_SCRIPT,
        keys,
        args,
      );
      const states = prepared.map((p, i): SlidingWindowState => {
        const [used, newest] = raw[i] ?? [0, -1];
        return {
          label: p.label,
          used: Number(used),
          limit: p.limit,
          resetMs: resetMsFor(Number(newest), p.g, nowMs),
        };
      });
      if (Number(allowedFlag) === 1) return { allowed: true, states };
      // Every refusing limit must free up for the request to fit: report the longest wait.
      // A request that can never fit (cost > limit) is told to come back after a window.
      let refusedBy = prepared[0]!.label;
      let waitMs = -1;
      prepared.forEach((p, i) => {
        if (fits(states[i]!.used, p.limit, p.cost)) return;
        const buckets = pairs(raw[i]?.[2] ?? []);
        const ms = retryAfterMs(buckets, p.g, p.limit, p.cost, nowMs) ?? p.windowMs;
        if (ms > waitMs) {
          waitMs = ms;
          refusedBy = p.label;
        }
      });
      return { allowed: false, refusedBy, retryAfterSeconds: toRetryAfterSeconds(waitMs), states };
    },

    async add(entries, nowMs) {
      const keys: string[] = [];
      const args: number[] = [];
      for (const e of entries) {
        const amount = toCount(e.amount, 'amount');
        const g = windowGeometry(e.windowMs, e.bucketMs, nowMs);
        if (amount === 0) continue;
        keys.push(e.key);
        args.push(g.current, g.bucketsInWindow, amount, e.windowMs + e.bucketMs);
      }
      if (keys.length === 0) return;
      await runScript<number>(redis, ADD_SCRIPT, keys, [keys.length, ...args]);
    },
  };
}
