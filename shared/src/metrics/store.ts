import { createBatchingLedgerWriter } from '../ledger/batching-writer';
import { type LuaScript, runScript } from '../stores/lua-script';
import type { RedisPort } from '../stores/redis-port';
import type { MetricSample } from './definitions';

/** Adds every field's amount to the hash in one call. ARGV: field, amount, field, amount, … */
export const ADD_SAMPLES_SCRIPT: LuaScript = {
  name: 'metrics-add',
  source: `for i = 1, #ARGV, 2 do
  redis.call('HINCRBYFLOAT', KEYS[1], ARGV[i], ARGV[i + 1])
end
return #ARGV / 2`,
  sha1: 'e793bf0e604d269a71a5815e015fa6fa1490e0f2',
};

export const METRICS_KEY = 'sluice:metrics';

export interface MetricsStore {
  /** Queues samples; resolves when the batch holding them is in Redis (hand it to waitUntil). */
  record(samples: readonly MetricSample[]): Promise<void>;
  /** Every series of the deployment, as stored. */
  read(): Promise<Record<string, number>>;
}

/**
 * Metrics across isolates: each isolate batches its samples (at most one Redis call per 200 ms
 * and per 500 samples, summed per series first) into one hash that every scrape reads. A sample
 * lost with its isolate before a flush is lost: counts are a lower bound by at most 200 ms.
 */
export function createRedisMetricsStore(
  redis: Pick<RedisPort, 'eval' | 'evalsha' | 'hgetall'>,
  options: { key?: string; onError(error: unknown, lost: number): void },
): MetricsStore {
  const key = options.key ?? METRICS_KEY;
  const writer = createBatchingLedgerWriter<MetricSample>(
    {
      async insert(samples) {
        const sums = new Map<string, number>();
        for (const s of samples) sums.set(s.field, (sums.get(s.field) ?? 0) + s.value);
        const args = [...sums].flatMap(([field, value]) => [field, String(value)]);
        await runScript(redis, ADD_SAMPLES_SCRIPT, [key], args);
      },
    },
    { maxBatch: 500, maxDelayMs: 200, onError: (error, lost) => options.onError(error, lost.length) },
  );
  return {
    async record(samples) {
      await Promise.all(samples.map((s) => writer.write(s)));
    },
    async read() {
      const stored = (await redis.hgetall<Record<string, string | number>>(key)) ?? {};
      return Object.fromEntries(Object.entries(stored).map(([f, v]) => [f, Number(v)]));
    },
  };
}
