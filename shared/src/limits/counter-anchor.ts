import { type CounterRebuildDeps, keepCounters, type RebuildOutcome } from './counter-rebuild';

/** How often a gateway waiting on another's rebuild looks again. */
const POLL_MS = 100;

/**
 * The gateway's side of the counter rebuild (GateDeps.anchorCounters): the first request that
 * finds the epoch mark missing rebuilds the calendar counters from the request log at once (or
 * marks a first start), and every other request of the isolate waits on that same promise;
 * another gateway's rebuild is waited for through the lock. Rejects past `timeoutMs`.
 */
export function createCounterAnchor(
  deps: CounterRebuildDeps,
  timeoutMs: number,
  options: { now?: () => number; onRebuilt?(outcome: RebuildOutcome): void } = {},
) {
  const now = options.now ?? Date.now;
  let running: Promise<void> | null = null;
  const anchorOnce = async () => {
    const deadline = now() + timeoutMs;
    for (;;) {
      const outcome = await keepCounters(deps, now());
      if (outcome.state === 'rebuilt') options.onRebuilt?.(outcome);
      if (outcome.state !== 'busy' && outcome.state !== 'waiting') return;
      if (now() + POLL_MS > deadline) throw new Error(`limit counters not rebuilt within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  };
  return (): Promise<void> => {
    running ??= anchorOnce().finally(() => {
      running = null;
    });
    return running;
  };
}
