import { type Breaker, NO_BREAKER } from '../stores/breaker';
import { withDeadline } from '../util/deadline';

/**
 * The version counters an isolate's caches hang on. Writers INCR a part's Redis key after
 * every committed change (keys, routing, limits, settings). The gateway learns the current
 * values from every admission reply (ADMIT_SCRIPT reads them in the same round trip), so a
 * warm isolate never reads them on its own; paths without an admission call `refresh()`,
 * which reads them at most once per `checkMs`.
 *
 * A part's caches are valid for the version they were loaded at. Before the first load the
 * board reads every version once (`ready()`), so what is loaded afterwards is known to be at
 * least that new. When a version moves, the part's generation goes up and its listeners
 * clear their entries; a load that started under the old generation is not kept.
 */
export interface BoardPart {
  readonly name: string;
  readonly key: string;
  /** Goes up each time the part's version moves. */
  generation(): number;
  /** Runs on every move (cache owners clear their entries here). */
  onChange(listener: () => void): void;
}

export interface VersionBoard {
  part(name: string): BoardPart;
  /** Each part's key and the version its caches hold ('*' while unknown: not checked). */
  expected(): ReadonlyArray<{ key: string; expected: string }>;
  /**
   * Current values, in `expected()` order: parts that moved are invalidated. Returns their
   * names (empty when nothing moved).
   */
  observe(current: readonly string[]): string[];
  /** Resolves once the versions were read at least once (or could not be: then unknown). */
  ready(): Promise<void>;
  /**
   * For paths that make no admission: reads the versions unless some were seen within
   * `maxAgeMs` (default checkMs; 0 reads them now).
   */
  refresh(maxAgeMs?: number): Promise<void>;
}

export interface VersionBoardOptions {
  /**
   * `watchOnly`: the part's moves are followed, but an admission never waits for them (its
   * expected value is always '*'): a cache whose staleness no request must see at once.
   */
  parts: ReadonlyArray<{ name: string; key: string; watchOnly?: boolean }>;
  /** Reads the current values of the keys, in order ('' for an unset key). */
  read(keys: readonly string[]): Promise<string[]>;
  timeoutMs: number;
  /** While it holds Redis for down, reads are skipped and versions stay as last known. */
  breaker?: Breaker;
  checkMs?: number;
  now?: () => number;
  onError?(error: unknown): void;
}

interface PartState {
  part: BoardPart;
  watchOnly: boolean;
  known: string;
  generation: number;
  listeners: Array<() => void>;
}

const UNKNOWN = '*';

/** The one command the board reads with (the Upstash client's or the Redis link's MGET). */
export interface VersionsPort {
  mget(...keys: string[]): Promise<Array<string | null>>;
}

/** The board's `read` over a Redis client: one MGET, '' for an unset key. */
export function readVersionsWith(redis: VersionsPort): VersionBoardOptions['read'] {
  return async (keys) => (await redis.mget(...keys)).map((v) => v ?? '');
}

export function createVersionBoard(options: VersionBoardOptions): VersionBoard {
  const checkMs = options.checkMs ?? 1_000;
  const breaker = options.breaker ?? NO_BREAKER;
  const now = options.now ?? Date.now;
  const states: PartState[] = options.parts.map(({ name, key, watchOnly }) => {
    const state: PartState = {
      known: UNKNOWN,
      generation: 0,
      listeners: [],
      part: undefined as never,
      watchOnly: watchOnly === true,
    };
    state.part = {
      name,
      key,
      generation: () => state.generation,
      onChange: (listener) => void state.listeners.push(listener),
    };
    return state;
  });
  let observedAt = Number.NEGATIVE_INFINITY;
  let firstRead: Promise<void> | null = null;
  let reading: Promise<void> | null = null;

  const observe = (current: readonly string[]): string[] => {
    observedAt = now();
    const moved: string[] = [];
    states.forEach((state, i) => {
      const value = current[i];
      if (value === undefined || value === state.known) return;
      const adopting = state.known === UNKNOWN;
      state.known = value;
      if (adopting) return;
      state.generation += 1;
      moved.push(state.part.name);
      for (const listener of state.listeners) listener();
    });
    return moved;
  };

  /** Every caller waits with a timer of its own (workerd: see coalescer.ts); a late read is let go. */
  const waitFor = (shared: Promise<void>): Promise<void> =>
    withDeadline(shared, options.timeoutMs, 'Redis (versions)').catch(() => undefined);

  const read = (): Promise<void> => {
    reading ??= breaker
      .guard(() =>
        withDeadline(options.read(states.map((s) => s.part.key)), options.timeoutMs, 'Redis (versions)'),
      )
      .then(
        (values) => void observe(values),
        (error: unknown) => options.onError?.(error),
      )
      .finally(() => {
        reading = null;
      });
    return reading;
  };

  return {
    part(name) {
      const state = states.find((s) => s.part.name === name);
      if (!state) throw new Error(`version board: no part ${name}`);
      return state.part;
    },
    expected: () => states.map((s) => ({ key: s.part.key, expected: s.watchOnly ? UNKNOWN : s.known })),
    observe,
    ready() {
      firstRead ??= read();
      return waitFor(firstRead);
    },
    refresh(maxAgeMs = checkMs) {
      return maxAgeMs > 0 && now() - observedAt < maxAgeMs ? Promise.resolve() : waitFor(read());
    },
  };
}
