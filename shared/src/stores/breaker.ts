/** Thrown at once, without a round trip, while a store is known to be unreachable. */
export class StoreUnavailableError extends Error {}

export interface BreakerOptions {
  /** Named in errors and in the open/close reports ('Redis'). */
  store: string;
  /** A cheap call that resolves only when the store answers; it bounds its own wait. */
  probe(): Promise<unknown>;
  /** Least time between two probes while open. */
  probeEveryMs: number;
  now?: () => number;
  /** Told once when the breaker opens (with the failure) and once when a probe closes it. */
  onChange?(open: boolean, error?: unknown): void;
}

export interface Breaker {
  readonly isOpen: boolean;
  /**
   * Runs `work` unless the store is known to be down; then rejects at once with
   * StoreUnavailableError and, when one is due, starts a probe (handed to `keepAlive`, so on
   * workerd it runs in the calling request without delaying it). A rejection of `work` opens
   * the breaker: pass only calls whose failure means the store could not be reached.
   */
  guard<T>(work: () => Promise<T>, keepAlive?: Background): Promise<T>;
  /** guard()'s check, for callers that send elsewhere: false while open (a probe may start). */
  allows(keepAlive?: Background): boolean;
  /** guard()'s verdict, for those callers: the store could not be reached. */
  failed(error: unknown): void;
}

/**
 * One breaker per store per isolate. An outage costs the first request one bounded wait (its
 * deadline); every request after it skips the store at no cost until a background probe sees
 * the store answer again, at most `probeEveryMs` after it came back. No request ever waits on
 * a probe.
 */
export function createBreaker(options: BreakerOptions): Breaker {
  const now = options.now ?? Date.now;
  let open = false;
  let lastProbeAt = Number.NEGATIVE_INFINITY;
  let probing = false;

  const failed = (error: unknown): void => {
    if (open) return;
    open = true;
    lastProbeAt = now();
    options.onChange?.(true, error);
  };

  const probe = (keepAlive: Background | undefined): void => {
    if (probing || now() - lastProbeAt < options.probeEveryMs) return;
    probing = true;
    lastProbeAt = now();
    const attempt = Promise.resolve()
      .then(() => options.probe())
      .then(
        () => {
          if (!open) return;
          open = false;
          options.onChange?.(false);
        },
        () => undefined,
      )
      .finally(() => {
        probing = false;
      });
    keepAlive?.(attempt);
  };

  const allows = (keepAlive?: Background): boolean => {
    if (!open) return true;
    probe(keepAlive);
    return false;
  };

  return {
    get isOpen() {
      return open;
    },
    allows,
    failed,
    async guard(work, keepAlive) {
      if (!allows(keepAlive)) throw unavailable(options.store);
      try {
        return await work();
      } catch (error) {
        failed(error);
        throw error;
      }
    },
  };
}

export function unavailable(store: string): StoreUnavailableError {
  return new StoreUnavailableError(`${store} is unreachable; skipped until it answers again`);
}

/** A breaker that never opens, for callers that bring none. */
export const NO_BREAKER: Breaker = {
  isOpen: false,
  allows: () => true,
  failed: () => undefined,
  guard: (work) => work(),
};

import type { Background } from '../util/background';
