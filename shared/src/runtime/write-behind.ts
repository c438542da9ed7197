import { type Breaker, NO_BREAKER } from '../stores/breaker';
import type { Background } from '../util/background';
import { withDeadline } from '../util/deadline';
import { type PipelinePort, runScriptPipeline, type ScriptCall, type ScriptOutcome } from './script-pipeline';

/** One script call a source hands over, and where its outcome goes. */
export interface PendingWrite {
  call: ScriptCall;
  /** The outcome (or the round trip's failure); a returned promise is waited for too. */
  done?(outcome: ScriptOutcome): void | Promise<void>;
}

/** Something that accumulates writes in memory between flushes (token counts, metrics). */
export interface WriteBehindSource {
  /** Hands over everything pending and starts afresh. */
  drain(): PendingWrite[];
}

export interface WriteBehind {
  register(source: WriteBehindSource): void;
  /**
   * Something is pending: a flush goes out within the window. Resolves (never rejects) when
   * the flush that carries what is pending now has been answered. The caller that opens a
   * window has the flush handed to `keepAlive` (waitUntil on workerd): that request keeps it
   * alive, and every other contributor can move on without waiting.
   */
  schedule(keepAlive?: Background): Promise<void>;
}

/**
 * Writes made after the response, shared by every request of the isolate: all that the
 * sources gathered (tokens to add on limit counters, metric samples, gauges) goes to Redis
 * in one pipeline per window, however many requests contributed. An idle isolate therefore
 * makes one round trip after a request; a busy one makes one per window, not one per request.
 * Losing a window's writes with an evicted isolate is accepted (they are counts after the
 * fact), and a failed flush is not retried: a retry after a timeout could count twice.
 * While the breaker holds Redis for down, a window's writes are dropped without a round trip
 * (the gateway proceeds without limits while Redis is unreachable; see docs/limits.md).
 */
export function createWriteBehind(
  redis: PipelinePort,
  options: {
    windowMs: number;
    timeoutMs: number;
    breaker?: Breaker;
    onError?(error: unknown): void;
    now?: () => number;
  },
): WriteBehind {
  const breaker = options.breaker ?? NO_BREAKER;
  const now = options.now ?? Date.now;
  const sources: WriteBehindSource[] = [];
  let next: Promise<void> | null = null;
  let openedAt = 0;
  /**
   * A window open longer than this never fired: on workerd its timer belonged to a request
   * whose context ended without keeping it (a contributor with no waitUntil to hand it to).
   * What it would have carried is still in the sources: the next contributor opens a new one.
   */
  const lostAfterMs = options.windowMs + options.timeoutMs + 1_000;

  const flush = async (): Promise<void> => {
    next = null;
    const writes = sources.flatMap((source) => source.drain());
    if (writes.length === 0) return;
    let outcomes: ScriptOutcome[];
    // A probe the breaker starts here is waited for: this flush is what keeps the work alive.
    const probes: Promise<unknown>[] = [];
    try {
      outcomes = await breaker.guard(
        () =>
          withDeadline(
            runScriptPipeline(
              redis,
              writes.map((w) => w.call),
            ),
            options.timeoutMs,
            'Redis',
          ),
        (probe) => void probes.push(probe),
      );
    } catch (error) {
      options.onError?.(error);
      outcomes = writes.map(() => ({ ok: false, error: String(error) }));
    }
    await Promise.all(probes);
    await Promise.all(
      writes.map(async (write, i) => {
        try {
          await write.done?.(outcomes[i] ?? { ok: false, error: 'no reply' });
        } catch (error) {
          options.onError?.(error);
        }
      }),
    );
  };

  return {
    register(source) {
      sources.push(source);
    },
    schedule(keepAlive) {
      if (!next || now() - openedAt > lostAfterMs) {
        openedAt = now();
        const opened: Promise<void> = new Promise<void>((resolve) =>
          setTimeout(resolve, options.windowMs),
        ).then(
          // A window given up on that fires after all leaves the flush to the current one.
          (): Promise<void> | undefined => (next === opened ? flush() : undefined),
        );
        next = opened;
        keepAlive?.(opened);
        return opened;
      }
      return next;
    },
  };
}
