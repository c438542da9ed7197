import { droppedSamples } from './samples';
import type { MetricsStore } from './store';

export interface DropReporter {
  /** The batching writer's onDrop: counts the records in the metrics and logs a WARN. */
  onDrop(count: number, error: unknown): void;
  /** Resolves once the last count is in Redis: await it in the same waitUntil as the write. */
  settled(): Promise<void>;
}

/**
 * Counts log records the analytics store never got (sluice_analytics_dropped_records_total)
 * and says so once per dropped batch. The gateway keeps serving either way.
 */
export function createDropReporter(
  metrics: Pick<MetricsStore, 'record'>,
  log: string,
  warn: (message: string, fields: Record<string, unknown>) => void,
): DropReporter {
  let last: Promise<void> = Promise.resolve();
  return {
    onDrop(count, error) {
      warn('analytics records dropped', { log, dropped: count, error: String(error) });
      last = metrics.record(droppedSamples(log, count));
    },
    settled: () => last,
  };
}
