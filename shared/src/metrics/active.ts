/**
 * In-flight requests and open streams of this isolate (or process). Only the current counts
 * are kept here; store.ts publishes them, with every metrics flush, into one Redis hash field
 * per isolate, and a scrape sums the fields published recently (see docs/api.md "Active gauges").
 */
export type ActiveKind = 'requests' | 'streams';

export interface ActiveCounts {
  requests: number;
  streams: number;
}

export interface ActiveCounter {
  /** Counts one more in flight; the returned function ends it (a second call is a no-op). */
  start(kind: ActiveKind): () => void;
  snapshot(): ActiveCounts;
  /** Whether anything was ever started here: an isolate that never served has nothing to publish. */
  used(): boolean;
}

export function createActiveCounter(): ActiveCounter {
  const counts: ActiveCounts = { requests: 0, streams: 0 };
  let used = false;
  return {
    start(kind) {
      used = true;
      counts[kind] += 1;
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        counts[kind] -= 1;
      };
    },
    snapshot: () => ({ ...counts }),
    used: () => used,
  };
}

/** Redis's clock in ms, from the TIME reply: one clock for every isolate, whatever their skew. */
export const LUA_NOW_MS = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;
