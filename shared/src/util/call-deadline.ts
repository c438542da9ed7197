/**
 * One timer for the successive deadlines of a request: its wait for a shared store round trip
 * (runtime/coalescer.ts), then the upstream's headers, then the upstream's body.
 *
 * A request used to arm and clear a timer for each wait; setTimeout and clearTimeout together
 * were about 6 % of the gateway's CPU per request on workerd. Here a deadline set while the
 * timer is already due no later than it reuses the timer: when the timer fires before the
 * deadline it re-arms itself for what is left. A request that ends in time (nearly all) costs
 * one setTimeout and one clearTimeout whatever its number of waits. The waits are one after
 * another: a deadline replaces the one before it.
 */
export interface CallDeadline {
  /**
   * From now on, `onExpired` runs once `ms` have passed. `armWithinMs`: a shorter wait that
   * will follow (the body's after the headers'); the timer is then armed that soon, so the
   * next set() finds it due in time and costs nothing.
   */
  set(ms: number, onExpired: () => void, armWithinMs?: number): void;
  /** No deadline until the next set(). The timer may stay armed; it then finds nothing to do. */
  pause(): void;
  /** No deadline, and the timer is stopped. */
  stop(): void;
}

export function createCallDeadline(): CallDeadline {
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** When the armed timer fires; infinite while none is armed. */
  let dueAt = Number.POSITIVE_INFINITY;
  let deadlineAt = Number.POSITIVE_INFINITY;
  let expired: (() => void) | null = null;

  const arm = (wait: number): void => {
    dueAt = Date.now() + wait;
    timer = setTimeout(fire, wait);
  };
  const disarm = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    dueAt = Number.POSITIVE_INFINITY;
  };
  function fire(): void {
    timer = undefined;
    dueAt = Number.POSITIVE_INFINITY;
    if (expired === null) return;
    const left = deadlineAt - Date.now();
    if (left > 0) {
      arm(left);
      return;
    }
    const onExpired = expired;
    expired = null;
    onExpired();
  }

  return {
    set(ms, onExpired, armWithinMs = ms) {
      const now = Date.now();
      deadlineAt = now + ms;
      expired = onExpired;
      const wait = Math.min(ms, armWithinMs);
      if (dueAt <= now + wait) return;
      disarm();
      arm(wait);
    },
    pause() {
      expired = null;
    },
    stop() {
      expired = null;
      disarm();
    },
  };
}
