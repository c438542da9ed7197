import { withDeadline } from '../util/deadline';

/**
 * Shares store round trips between concurrent callers of one isolate (or process).
 *
 * A store hop costs about as much CPU as a whole forwarded request on workerd, so requests in
 * flight together should not each pay for their own. Items submitted in the same tick go out
 * together; while `maxInFlight` batches are out, new items wait and leave together as soon as
 * one comes back. An idle isolate therefore sends at once (no timer, no added latency), and a
 * busy one sends fewer, larger batches: store calls per request go down as load goes up.
 *
 * On workerd, I/O belongs to the request that started it, and a request that only waits on
 * another request's I/O looks hung to the runtime. So no caller depends on another to act for
 * it: every waiting caller wakes (in its own request) when a batch comes back, and the first
 * to run sends everything still queued; a caller whose item is sent by someone else waits for
 * the answer with a deadline timer of its own. A batch whose sender vanished (its request was
 * torn down) stops holding a slot after `timeoutMs`: its waiters time out, and the next caller
 * sends.
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
  now?: () => number;
}

/** Keeps a batch alive past its sender's response (waitUntil on workerd). */
export type KeepAlive = (work: Promise<unknown>) => void;

export interface Coalescer<I, O> {
  /**
   * Sends the item with the next batch. When this caller sends the batch itself, `keepAlive`
   * is handed it, so the batch outlives a caller whose client goes away mid-flight.
   */
  submit(item: I, keepAlive?: KeepAlive): Promise<O>;
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
  const now = options.now ?? Date.now;
  let queue: Entry<I, O>[] = [];
  /** Start times of the batches out; one older than timeoutMs no longer counts. */
  const flying = new Set<{ startedAt: number }>();
  /**
   * Callers waiting for a batch to come back. Each waits on a promise it made itself: on
   * workerd a promise's continuations run in the request that created it, so a promise made by
   * a request that has since ended would never wake anyone.
   */
  let waking: Array<() => void> = [];
  const batchReturned = (): Promise<void> => new Promise((resolve) => waking.push(resolve));

  const hasRoom = (): boolean => {
    const at = now();
    for (const batch of flying) if (at - batch.startedAt >= options.timeoutMs) flying.delete(batch);
    return flying.size < maxInFlight;
  };

  const launch = (keepAlive: KeepAlive | undefined): void => {
    const entries = queue.slice(0, maxBatch);
    queue = queue.slice(maxBatch);
    for (const entry of entries) entry.queued = false;
    const batch = { startedAt: now() };
    flying.add(batch);
    const done = options
      .send(entries.map((e) => e.item))
      .then(
        (results) =>
          entries.forEach((entry, i) => {
            if (i < results.length) entry.resolve(results[i] as O);
            else entry.reject(new Error(`store batch answered ${results.length} of ${entries.length}`));
          }),
        (error: unknown) => {
          for (const entry of entries) entry.reject(error);
        },
      )
      .finally(() => {
        flying.delete(batch);
        const waiting = waking;
        waking = [];
        for (const wake of waiting) wake();
      });
    keepAlive?.(done);
  };

  /** Waits for room (or for another caller to send the entry), then for the answer. */
  const waitThenAnswer = async (entry: Entry<I, O>, result: Promise<O>, keepAlive: KeepAlive | undefined) => {
    while (entry.queued && !entry.abandoned) {
      if (hasRoom()) {
        launch(keepAlive);
        break;
      }
      await batchReturned();
    }
    return result;
  };

  const submit = async (
    entry: Entry<I, O>,
    result: Promise<O>,
    keepAlive: KeepAlive | undefined,
  ): Promise<O> => {
    // Yield once: the rest of this tick's submissions join the batch.
    await null;
    if (entry.queued && hasRoom()) {
      // The common case when idle: this caller sends, and send() bounds its own wait.
      launch(keepAlive);
      return result;
    }
    // Waiting on another request's batch, or for room: with a timer of its own.
    return withDeadline(waitThenAnswer(entry, result, keepAlive), options.timeoutMs, 'store batch');
  };

  return {
    submit(item, keepAlive) {
      let entry: Entry<I, O> | undefined;
      const result = new Promise<O>((resolve, reject) => {
        entry = { item, queued: true, abandoned: false, resolve, reject };
      });
      const mine = entry as Entry<I, O>;
      queue.push(mine);
      return submit(mine, result, keepAlive).catch((error: unknown) => {
        mine.abandoned = true;
        if (mine.queued) queue = queue.filter((e) => e !== mine);
        throw error;
      });
    },
  };
}
