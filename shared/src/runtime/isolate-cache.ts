import type { Background } from '../util/background';
import { withDeadline } from '../util/deadline';
import type { BoardPart } from './version-board';

export interface IsolateCacheOptions<V> {
  /** Loads a value; may hand follow-up work (a cache fill) to `background`. */
  load(key: string, background: Background): Promise<V>;
  /** The version whose moves drop every entry (see version-board.ts). */
  part: BoardPart;
  /** Waits until the board knows the versions, so a first load is known to be that new. */
  ready(): Promise<void>;
  /** An entry this old is still served, and reloaded in the background meanwhile. */
  refreshAfterMs: number;
  /**
   * Longest a request waits for a load (its own timer: on workerd a request that only waits
   * on another request's load would look hung and be cancelled).
   */
  waitMs: number;
  /**
   * A load older than this is abandoned: the next request starts a fresh one. On workerd a load
   * belongs to the request that started it, and when that request is gone (its deadline answered
   * it, its client left) the load's I/O may never settle. Defaults to `waitMs`.
   */
  loadTimeoutMs?: number;
  maxEntries?: number;
  now?: () => number;
  /** Told about failed background reloads (the old value stays). */
  onError?(error: unknown, key: string): void;
}

/**
 * Values loaded from Postgres, kept in the isolate so that a warm request never waits for a
 * database: a present entry is always served at once; past `refreshAfterMs` it is reloaded in
 * the background (waitUntil) and the old value serves until the new one is in. Only a missing
 * entry is loaded while the request waits (one load per key, however many ask). Correctness
 * comes from the version board: a change in the console moves the part's version and every
 * entry goes, so the next request loads afresh; the refresh age only bounds staleness while
 * versions cannot be read (Redis down).
 */
export interface IsolateCache<V> {
  get(key: string, background: Background): Promise<V>;
  /** The value when present (however old), without loading. */
  peek(key: string): V | undefined;
}

interface Loading<V> {
  promise: Promise<V>;
  startedAt: number;
}

interface Entry<V> {
  value: V;
  loadedAt: number;
  refreshing: boolean;
}

export function createIsolateCache<V>(options: IsolateCacheOptions<V>): IsolateCache<V> {
  const maxEntries = options.maxEntries ?? 10_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry<V>>();
  const loadTimeoutMs = options.loadTimeoutMs ?? options.waitMs;
  const loading = new Map<string, Loading<V>>();
  options.part.onChange(() => {
    entries.clear();
    loading.clear();
  });

  const store = (key: string, value: V): void => {
    if (!entries.has(key) && entries.size >= maxEntries) {
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) entries.delete(oldest);
    }
    entries.set(key, { value, loadedAt: now(), refreshing: false });
  };

  const load = (key: string, background: Background): Promise<V> => {
    const inFlight = loading.get(key);
    if (inFlight && now() - inFlight.startedAt < loadTimeoutMs) return inFlight.promise;
    const started = (async () => {
      await options.ready();
      const generation = options.part.generation();
      const value = await options.load(key, background);
      // A version moved while this was loading: it may predate the change, so it is not kept.
      if (options.part.generation() === generation) store(key, value);
      return value;
    })();
    loading.set(key, { promise: started, startedAt: now() });
    const forget = () => {
      if (loading.get(key)?.promise === started) loading.delete(key);
    };
    started.then(forget, forget);
    return started;
  };

  return {
    get(key, background) {
      const entry = entries.get(key);
      if (!entry) return withDeadline(load(key, background), options.waitMs, `${options.part.name} load`);
      if (!entry.refreshing && now() - entry.loadedAt >= options.refreshAfterMs) {
        entry.refreshing = true;
        background(
          load(key, background).catch((error: unknown) => {
            // Keep serving the old value; try again one refresh period from now.
            entry.refreshing = false;
            entry.loadedAt = now();
            options.onError?.(error, key);
          }),
        );
      }
      return Promise.resolve(entry.value);
    },
    peek: (key) => entries.get(key)?.value,
  };
}
