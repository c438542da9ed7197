import { createWriteBehind, type WriteBehind } from '../runtime/write-behind';
import { type LuaScript, runScript } from '../stores/lua-script';
import type { RedisPort } from '../stores/redis-port';
import type { Background } from '../util/background';
import { type ActiveKind, createActiveCounter, LUA_NOW_MS } from './active';
import { METRICS, type MetricSample } from './definitions';

/**
 * The flush: adds the samples (KEYS[1], as ADD_SAMPLES_SCRIPT) and, when ARGV[1] names an
 * isolate, sets its field of the active-gauges hash (KEYS[2]) to "requests streams ms" with
 * Redis's own clock. ARGV: isolate, requests, streams, then field, amount, field, amount, …
 */
export const FLUSH_SCRIPT: LuaScript = {
  name: 'metrics-flush',
  source: `${LUA_NOW_MS}
if ARGV[1] ~= '' then
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[2] .. ' ' .. ARGV[3] .. ' ' .. string.format('%d', now))
end
for i = 4, #ARGV, 2 do
  redis.call('HINCRBYFLOAT', KEYS[1], ARGV[i], ARGV[i + 1])
end
return (#ARGV - 3) / 2`,
  sha1: 'ce8400f6870d0cd3df5777a8aa458f5c579911c9',
};

/**
 * Sums the active gauges of the isolates that published within ARGV[1] ms and deletes the
 * older fields (isolates that were evicted, or went idle long ago). Returns {requests, streams}.
 */
export const READ_ACTIVE_SCRIPT: LuaScript = {
  name: 'metrics-active',
  source: `${LUA_NOW_MS}
local cutoff = now - tonumber(ARGV[1])
local fields = redis.call('HGETALL', KEYS[1])
local requests, streams = 0, 0
for i = 1, #fields, 2 do
  local r, s, at = string.match(fields[i + 1], '^(%d+) (%d+) (%d+)$')
  if at == nil or tonumber(at) < cutoff then
    redis.call('HDEL', KEYS[1], fields[i])
  else
    requests = requests + tonumber(r)
    streams = streams + tonumber(s)
  end
end
return {requests, streams}`,
  sha1: '2e4ef8a4aa804fc7b7da25cd37ac9151d5a6027a',
};

export const METRICS_KEY = 'sluice:metrics';

/** An isolate's figures count for this long after it last published them. */
export const ACTIVE_TTL_MS = 60_000;
/** While anything is in flight, an isolate republishes at least this often (see start()). */
export const ACTIVE_REFRESH_MS = 15_000;

export interface ActiveHandle {
  /** Resolves when the new count is in Redis (hand it to waitUntil). */
  published: Promise<void>;
  /** Stops counting it (idempotent); resolves when that is in Redis. */
  end(): Promise<void>;
  /** Republishes when the last publish is getting old (call it as a long stream moves). */
  touch(): Promise<void> | null;
}

export interface MetricsStore {
  /**
   * Queues samples; resolves when the flush holding them is in Redis. `keepAlive` gets the
   * flush when this call opens it (see runtime/write-behind.ts).
   */
  record(samples: readonly MetricSample[], keepAlive?: Background): Promise<void>;
  /**
   * As record(), but the samples are worked out when the flush drains them: the request that
   * records them does not spend the time on its own path.
   */
  recordLater(compute: () => readonly MetricSample[], keepAlive?: Background): Promise<void>;
  /** Every series of the deployment, as stored, with the active gauges summed over live isolates. */
  read(): Promise<Record<string, number>>;
  /** Counts one request or stream in flight in this isolate until end(); keepAlive as for record. */
  start(kind: ActiveKind, keepAlive?: Background): ActiveHandle;
}

export interface RedisMetricsStoreOptions {
  key?: string;
  onError(error: unknown, lost: number): void;
  /** Names this isolate's field of the active-gauges hash; random by default. */
  isolateId?: string;
  activeTtlMs?: number;
  activeRefreshMs?: number;
  /**
   * The isolate's shared after-response writer, so samples ride in the same round trip as the
   * token counts; without one the store makes its own (a 200 ms window, runtime/write-behind.ts).
   */
  writeBehind?: WriteBehind;
  timeoutMs?: number;
}

/** Flush window of a store that has no shared writer. */
const OWN_WINDOW_MS = 200;

/**
 * Metrics across isolates: each isolate sums its samples per series in memory and hands them,
 * with its gauges, to the write-behind flush (one Redis call per window, in the same pipeline
 * as the window's token counts). A sample lost with its isolate before a flush is lost: counts
 * are a lower bound by at most one window, and a failed flush is not retried (a retry after a
 * timeout could count twice).
 *
 * Active gauges: not inc/dec counters in Redis, because an isolate evicted mid-request (or a
 * lost flush) would leave a +1 there for ever. Each isolate instead publishes its current counts
 * (one hash field, set with every flush it makes anyway) and a scrape sums the fields fresher
 * than activeTtlMs, deleting the rest: a dead isolate's figures vanish within that time.
 */
export function createRedisMetricsStore(
  redis: Pick<RedisPort, 'eval' | 'evalsha' | 'hgetall' | 'pipeline'>,
  options: RedisMetricsStoreOptions,
): MetricsStore {
  const key = options.key ?? METRICS_KEY;
  const activeKey = `${key}:active`;
  const isolate = options.isolateId ?? crypto.randomUUID();
  const ttlMs = options.activeTtlMs ?? ACTIVE_TTL_MS;
  const refreshMs = options.activeRefreshMs ?? ACTIVE_REFRESH_MS;
  const active = createActiveCounter();
  const writeBehind =
    options.writeBehind ??
    createWriteBehind(redis, { windowMs: OWN_WINDOW_MS, timeoutMs: options.timeoutMs ?? 2_000 });
  let sums = new Map<string, number>();
  let later: Array<() => readonly MetricSample[]> = [];
  let pendingSamples = 0;
  let gaugesChanged = false;
  let publishedAt = 0;

  writeBehind.register({
    drain() {
      // Samples recorded lazily are worked out now, off the requests' own paths.
      for (const compute of later) add(compute());
      later = [];
      if (sums.size === 0 && !gaugesChanged) return [];
      const counts = active.snapshot();
      const gauges = active.used() ? [isolate, counts.requests, counts.streams] : ['', 0, 0];
      const args = [...sums].flatMap(([field, value]) => [field, String(value)]);
      const lost = pendingSamples;
      const publishing = active.used();
      sums = new Map();
      pendingSamples = 0;
      gaugesChanged = false;
      return [
        {
          call: { script: FLUSH_SCRIPT, keys: [key, activeKey], args: [...gauges, ...args] },
          done(outcome) {
            if (!outcome.ok) options.onError(new Error(outcome.error), lost);
            else if (publishing) publishedAt = Date.now();
          },
        },
      ];
    },
  });
  const publish = (keepAlive: Background | undefined): Promise<void> => {
    gaugesChanged = true;
    return writeBehind.schedule(keepAlive);
  };
  function add(samples: readonly MetricSample[]): void {
    for (const s of samples) sums.set(s.field, (sums.get(s.field) ?? 0) + s.value);
    pendingSamples += samples.length;
  }
  return {
    record(samples, keepAlive) {
      if (samples.length === 0) return Promise.resolve();
      add(samples);
      return writeBehind.schedule(keepAlive);
    },
    recordLater(compute, keepAlive) {
      later.push(compute);
      return writeBehind.schedule(keepAlive);
    },
    async read() {
      const [stored, counts] = await Promise.all([
        redis.hgetall<Record<string, string | number>>(key),
        runScript<[number, number]>(redis, READ_ACTIVE_SCRIPT, [activeKey], [ttlMs]),
      ]);
      return {
        ...Object.fromEntries(Object.entries(stored ?? {}).map(([f, v]) => [f, Number(v)])),
        [METRICS.activeRequests.name]: Number(counts[0]),
        [METRICS.activeStreams.name]: Number(counts[1]),
      };
    },
    start(kind, keepAlive) {
      const stop = active.start(kind);
      return {
        published: publish(keepAlive),
        end() {
          stop();
          return publish(keepAlive);
        },
        touch: () => (Date.now() - publishedAt >= refreshMs ? publish(keepAlive) : null),
      };
    },
  };
}
