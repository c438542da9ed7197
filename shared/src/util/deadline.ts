/** Thrown when a store call did not answer within its deadline. */
export class DeadlineError extends Error {}

/**
 * How late a timer may fire before the delay counts as the isolate's own (an event loop that
 * was busy), not the store's.
 */
export const LATE_SLACK_MS = 25;

/**
 * The time a deadline's timer fired late by, beyond the slack: what a waiting call is excused
 * (see withDeadline). 0 for a timer on time.
 */
export function lateness(firedAt: number, dueAt: number): number {
  const late = firedAt - dueAt;
  return late > LATE_SLACK_MS ? late : 0;
}

/**
 * Races a store call against a deadline, so a hung Redis or Postgres cannot hang a request.
 * The call itself is not cancelled (the drivers take no signal); its late answer is dropped.
 *
 * A deadline whose timer fires late gives the answer once more that long (at most `ms`): a
 * busy event loop runs an overdue timer before the replies that came in meanwhile (Node runs
 * timers before it polls its sockets; on workerd a Redis reply takes several turns of the loop
 * to reach the caller), so giving up at once would take the isolate's own delay for the
 * store's, and the limits it counts would be skipped (or refused, failing closed) under load.
 */
export async function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let cancel = () => {};
  const deadline = new Promise<never>((_, reject) => {
    cancel = deadlineTimer(ms, () => reject(new DeadlineError(`${what} did not answer within ${ms} ms`)));
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    cancel();
  }
}

/**
 * A store call's deadline timer: `expire` runs `ms` from now, or, when the timer fired late
 * (beyond LATE_SLACK_MS), that much later again, at most `ms` (see withDeadline). Returns the
 * cancel.
 */
export function deadlineTimer(ms: number, expire: () => void, now: () => number = Date.now): () => void {
  const dueAt = now() + ms;
  let timer = setTimeout(() => {
    const grace = Math.min(lateness(now(), dueAt), ms);
    if (grace === 0) expire();
    else timer = setTimeout(expire, grace);
  }, ms);
  return () => clearTimeout(timer);
}
