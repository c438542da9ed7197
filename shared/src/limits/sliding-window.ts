import type { ScriptCall, ScriptRun } from '../stores/lua-script';
import { COUNTING_SINCE_KEY } from './counting-since';
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

/**
 * An ADD amount: a whole number, rounded up, so tokens are never under-counted and a
 * reservation given back (negative) is never given back in excess.
 */
function toAmount(value: number): number {
  if (!Number.isFinite(value)) throw new RangeError(`amount must be a number, got ${value}`);
  return Math.ceil(value);
}

/** Per limit as the check scripts reply: [used, newest, [idx, count, ...]]. */
export type ScriptState = [number | string, number | string, Array<number | string>];

function pairs(flat: ReadonlyArray<number | string>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push([Number(flat[i]), Number(flat[i + 1])]);
  return out;
}

/**
 * A counter ready for the check script: its bucket geometry already worked out, so sliding
 * windows and calendar periods (one bucket per period, its id in the key) share one path.
 */
export interface PreparedCounter {
  label: string;
  key: string;
  /** Current bucket index and how many buckets count (N). */
  current: number;
  bucketsInWindow: number;
  limit: number;
  cost: number;
  /** PEXPIRE after a write: longer than the counter can matter. */
  expiryMs: number;
  /**
   * How usage leaves: a sliding window bucket by bucket (bucketMs > 0, as of nowMs), a
   * calendar period all at once when it ends (bucketMs 0, periodWaitMs from nowMs).
   */
  bucketMs: number;
  nowMs: number;
  periodWaitMs: number;
}

/** Milliseconds until all usage leaves the counter, from the newest counted bucket. */
export function resetMsOf(c: PreparedCounter, newest: number): number {
  if (c.bucketMs === 0) return newest < 0 ? 0 : c.periodWaitMs;
  return resetMsFor(newest, c, c.nowMs);
}

/** Milliseconds until a request of `cost` fits (the buckets of the window given); null: never. */
export function waitMsOf(c: PreparedCounter, buckets: Array<[number, number]>): number | null {
  if (c.bucketMs === 0) return c.periodWaitMs;
  return retryAfterMs(buckets, c, c.limit, c.cost, c.nowMs);
}

/** What to wait when a request can never fit (cost > limit): one window, or the period. */
function fallbackWaitMsOf(c: PreparedCounter): number {
  return c.bucketMs === 0 ? c.periodWaitMs : c.bucketMs * c.bucketsInWindow;
}

export type CounterCheck =
  | { allowed: true; states: SlidingWindowState[] }
  | { allowed: false; refusedBy: string; retryAfterMs: number; states: SlidingWindowState[] };

/** One script call over prepared counters: checks all, counts `cost` on each only if all pass. */
export async function checkCounters(
  run: ScriptRun,
  counters: readonly PreparedCounter[],
  nowMs: number,
): Promise<CounterCheck> {
  if (counters.length === 0) return { allowed: true, states: [] };
  const { keys, args } = counterArgs(counters);
  const reply = await run({
    script: CHECK_SCRIPT,
    keys: [...keys, COUNTING_SINCE_KEY],
    args: [counters.length, ...args, Math.floor(nowMs)],
  });
  const [allowedFlag, ...raw] = reply as [number | string, ...ScriptState[]];
  return interpretCheck(counters, Number(allowedFlag) === 1, raw);
}

/** KEYS and the 5 ARGV per counter (current, N, limit, cost, expiry) of the check scripts. */
export function counterArgs(counters: readonly PreparedCounter[]): { keys: string[]; args: number[] } {
  const seen = new Set<string>();
  const keys: string[] = [];
  const args: number[] = [];
  for (const c of counters) {
    if (seen.has(c.key)) throw new Error(`sliding-window check: key ${c.key} appears twice`);
    seen.add(c.key);
    keys.push(c.key);
    args.push(c.current, c.bucketsInWindow, toCount(c.limit, 'limit'), toCount(c.cost, 'cost'), c.expiryMs);
  }
  return { keys, args };
}

/** A check script's per-counter replies ({used, newest, live buckets}) read against the counters. */
export function interpretCheck(
  counters: readonly PreparedCounter[],
  allowed: boolean,
  raw: ReadonlyArray<ScriptState | undefined>,
): CounterCheck {
  const states = counters.map((c, i): SlidingWindowState => {
    const [used, newest] = raw[i] ?? [0, -1];
    return { label: c.label, used: Number(used), limit: c.limit, resetMs: resetMsOf(c, Number(newest)) };
  });
  if (allowed) return { allowed: true, states };
  // Every refusing limit must free up for the request to fit: report the longest wait.
  let refusedBy = counters[0]?.label ?? '';
  let waitMs = -1;
  counters.forEach((c, i) => {
    if (fits(states[i]!.used, c.limit, c.cost)) return;
    const ms = waitMsOf(c, pairs(raw[i]?.[2] ?? [])) ?? fallbackWaitMsOf(c);
    if (ms > waitMs) {
      waitMs = ms;
      refusedBy = c.label;
    }
  });
  return { allowed: false, refusedBy, retryAfterMs: Math.max(0, waitMs), states };
}

/**
 * Where a sliding window's key counts at nowMs. Checking a limit and adding to it must agree
 * on the bucket and on the expiry (window + bucket, see above), so both take them from here.
 */
export function slidingBucketAt(
  window: { key: string; windowMs: number; bucketMs: number },
  nowMs: number,
): Omit<CounterAddition, 'amount'> {
  const { current, bucketsInWindow } = windowGeometry(window.windowMs, window.bucketMs, nowMs);
  return { key: window.key, current, bucketsInWindow, expiryMs: window.windowMs + window.bucketMs };
}

/** A sliding-window limit as a prepared counter at nowMs. */
export function prepareSlidingLimit(l: SlidingWindowLimit, nowMs: number): PreparedCounter {
  return {
    label: l.label,
    ...slidingBucketAt(l, nowMs),
    limit: toCount(l.limit, 'limit'),
    cost: toCount(l.cost, 'cost'),
    bucketMs: l.bucketMs,
    nowMs,
    periodWaitMs: 0,
  };
}

/** An amount for one counter bucket, its geometry worked out by the caller. */
export interface CounterAddition {
  key: string;
  current: number;
  bucketsInWindow: number;
  /** Negative: a reservation given back (limits/reservation.ts). */
  amount: number;
  expiryMs: number;
}

/** One ADD script call: adds amounts to counters (bucket geometry worked out by the caller). */
export async function addToCounters(
  run: ScriptRun,
  entries: ReadonlyArray<CounterAddition>,
  nowMs = Date.now(),
): Promise<void> {
  const call = addCall(entries, nowMs);
  if (call) await run(call);
}

/** The ADD script call for these entries, made at nowMs; null when nothing is to be added. */
export function addCall(entries: ReadonlyArray<CounterAddition>, nowMs = Date.now()): ScriptCall | null {
  const keys: string[] = [];
  const args: number[] = [];
  for (const e of entries) {
    const amount = toAmount(e.amount);
    if (amount === 0) continue;
    keys.push(e.key);
    args.push(e.current, e.bucketsInWindow, amount, e.expiryMs);
  }
  if (keys.length === 0) return null;
  return {
    script: ADD_SCRIPT,
    keys: [...keys, COUNTING_SINCE_KEY],
    args: [keys.length, ...args, Math.floor(nowMs)],
  };
}

export function createSlidingWindowLimiter(run: ScriptRun): SlidingWindowLimiter {
  return {
    async check(limits, nowMs) {
      const result = await checkCounters(
        run,
        limits.map((l) => prepareSlidingLimit(l, nowMs)),
        nowMs,
      );
      if (result.allowed) return result;
      const { retryAfterMs: ms, ...rest } = result;
      return { ...rest, retryAfterSeconds: toRetryAfterSeconds(ms) };
    },

    async add(entries, nowMs) {
      await addToCounters(
        run,
        entries.map((e) => ({ ...slidingBucketAt(e, nowMs), amount: e.amount })),
        nowMs,
      );
    },
  };
}
