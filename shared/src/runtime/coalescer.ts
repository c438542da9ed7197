import type { Background } from '../util/background';
import { type CallDeadline, createCallDeadline } from '../util/call-deadline';
import { DeadlineError, lateness } from '../util/deadline';

/**
 * Shares store round trips between concurrent callers of one isolate (or process).
 *
 * A store hop costs about as much CPU as a whole forwarded request on workerd, so requests in
 * flight together should not each pay for their own. Items submitted in the same tick go out
 * together; while `maxInFlight` batches are out, new items wait and leave together as soon as
 * one comes back. An idle isolate therefore sends at once (no timer, no added latency), and a
 * busy one sends fewer, larger batches: store calls per request go down as load goes up.
 *
 * workerd ties I/O to the request that starts it, and I/O started from a continuation that
 * another request woke up can fail ("Cannot perform I/O on behalf of a different request",
 * seen under load). So only code that runs in a request's own chain of events sends:
 * - a caller that finds room sends at once, in its own request;
 * - the request whose batch comes back sends what queued meanwhile, from its own continuation
 *   (kept alive by its waitUntil), up to `maxFollowUps` times in a row;
 * - a waiting caller also arms a timer of its own (`patienceMs`): if nobody sent its item by
 *   then (the chain stopped, or its sender vanished), it sends from that timer.
 * Every waiting caller also has a deadline timer: on workerd a request that only waits on
 * another request's work looks hung to the runtime. A batch whose sender vanished stops holding
 * a slot after `timeoutMs`.
 */
export interface CoalescerOptions<I, O> {
  /** Sends one batch; answers one result per item, in order. A rejection fails every item. */
  send(items: readonly I[]): Promise<readonly O[]>;
  /** Longest a caller waits for its result when another caller sent it (send() bounds its own). */
  timeoutMs: number;
  /** Batches out at the same time (default 1). */
  maxInFlight?: number;
  /** Largest batch (default 256); more items wait for the next one. */
  maxBatch?: number;
  /** Batches a sender sends in a row as its own come back (default 16). */
  maxFollowUps?: number;
  /** How long a waiting caller leaves the sending to others before it sends (default 20 ms). */
  patienceMs?: number;
  now?: () => number;
}

export interface Coalescer<I, O> {
  /**
   * Sends the item with the next batch. When this caller sends a batch itself, `keepAlive` is
   * handed it, so the batch outlives a caller whose client goes away mid-flight. `timer` is the
   * calling request's own (util/call-deadline.ts): a wait for another request's batch then arms
   * no timer of its own.
   */
  submit(item: I, keepAlive?: Background, timer?: CallDeadline): Promise<O>;
}

interface Entry<I, O> {
  item: I;
  queued: boolean;
  abandoned: boolean;
  resolve(value: O): void;
  reject(error: unknown): void;
}

export function createCoalescer<I, O>(options: CoalescerOptions<I, O>): Coalescer<I, O> {
  const maxInFlight = Math.max(1, options.maxInFlight ?? 1);
  const maxBatch = Math.max(1, options.maxBatch ?? 256);
  const maxFollowUps = Math.max(0, options.maxFollowUps ?? 16);
  const patienceMs = options.patienceMs ?? 20;
  const now = options.now ?? Date.now;
  let queue: Entry<I, O>[] = [];
  /** Start times of the batches out; one older than timeoutMs no longer counts. */
  const flying = new Set<{ startedAt: number }>();

  const hasRoom = (): boolean => {
    const at = now();
    for (const batch of flying) if (at - batch.startedAt >= options.timeoutMs) flying.delete(batch);
    return flying.size < maxInFlight;
  };

  const settle = (entries: Entry<I, O>[], results: readonly O[]): void =>
    entries.forEach((entry, i) => {
      if (i < results.length) entry.resolve(results[i] as O);
      else entry.reject(new Error(`store batch answered ${results.length} of ${entries.length}`));
    });

  /** Sends what is queued, in the calling request; then, while it may, what queued meanwhile. */
  const launch = (keepAlive: Background | undefined, followUps: number): void => {
    const entries = queue.slice(0, maxBatch);
    queue = queue.slice(maxBatch);
    for (const entry of entries) entry.queued = false;
    const batch = { startedAt: now() };
    flying.add(batch);
    const done = options.send(entries.map((e) => e.item)).then(
      (results) => settle(entries, results),
      (error: unknown) => {
        for (const entry of entries) entry.reject(error);
      },
    );
    const next = done.finally(() => {
      flying.delete(batch);
      // Still this request's own chain of events: it may send the next batch itself.
      if (followUps > 0 && queue.length > 0 && hasRoom()) launch(keepAlive, followUps - 1);
    });
    keepAlive?.(next);
  };

  /**
   * A waiting caller's one timer (its own, so workerd sees it pending): every patienceMs it
   * sends the entry if nobody did, and after timeoutMs it gives up waiting.
   */
  const waitWithTimer = async (
    entry: Entry<I, O>,
    result: Promise<O>,
    keepAlive: Background | undefined,
    requestTimer: CallDeadline | undefined,
  ): Promise<O> => {
    const startedAt = Date.now();
    const timer = requestTimer ?? createCallDeadline();
    let dueAt = startedAt + patienceMs;
    let excused = 0;
    const deadline = new Promise<never>((_, reject) => {
      const look = () => {
        const at = Date.now();
        const late = lateness(at, dueAt);
        // A look that fired late (a busy event loop) gives the answers that came meanwhile one
        // more turn, until the lateness so excused adds up to timeoutMs (see withDeadline).
        const mayExpire = late === 0 || excused >= options.timeoutMs;
        excused += late;
        if (mayExpire && at - startedAt >= options.timeoutMs) {
          reject(new DeadlineError(`store batch did not answer within ${options.timeoutMs} ms`));
          return;
        }
        if (entry.queued && !entry.abandoned && hasRoom()) launch(keepAlive, maxFollowUps);
        dueAt = at + patienceMs;
        timer.set(patienceMs, look);
      };
      timer.set(patienceMs, look);
    });
    // An await in this request's own async function: its continuation (and so the timer's
    // release) runs in this request, whoever settled the answer. A .then() chained here did not
    // always. The request's own timer is left armed for its next wait (the upstream call).
    try {
      return await Promise.race([result, deadline]);
    } finally {
      if (requestTimer) requestTimer.pause();
      else timer.stop();
    }
  };

  const submit = async (
    entry: Entry<I, O>,
    result: Promise<O>,
    keepAlive: Background | undefined,
    timer: CallDeadline | undefined,
  ): Promise<O> => {
    // Yield once: the rest of this tick's submissions join the batch.
    await null;
    if (entry.queued && hasRoom()) {
      // The common case when idle: this caller sends, and send() bounds its own wait.
      launch(keepAlive, maxFollowUps);
      return result;
    }
    // Waiting on another request's batch, or for room: with a timer (the request's own, if given).
    return waitWithTimer(entry, result, keepAlive, timer);
  };

  return {
    submit(item, keepAlive, timer) {
      let entry: Entry<I, O> | undefined;
      const result = new Promise<O>((resolve, reject) => {
        entry = { item, queued: true, abandoned: false, resolve, reject };
      });
      const mine = entry as Entry<I, O>;
      queue.push(mine);
      return submit(mine, result, keepAlive, timer).catch((error: unknown) => {
        mine.abandoned = true;
        if (mine.queued) queue = queue.filter((e) => e !== mine);
        throw error;
      });
    },
  };
}
