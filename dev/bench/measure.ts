/** Load generators for `npm run bench`: closed-loop (max throughput) and open-loop (fixed rate). */

export type Send = () => Promise<Response>;

export interface Figures {
  requestsPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  failures: number;
  /** Status of each failed answer, counted (`0` when the request itself failed). */
  failureStatuses: Record<string, number>;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

function figures(latencies: number[], seconds: number, statuses: number[]): Figures {
  latencies.sort((a, b) => a - b);
  const failureStatuses: Record<string, number> = {};
  for (const status of statuses) failureStatuses[status] = (failureStatuses[status] ?? 0) + 1;
  return {
    failureStatuses,
    requestsPerSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    failures: statuses.length,
  };
}

async function timed(send: Send): Promise<{ ms: number; ok: boolean; status: number }> {
  const t0 = performance.now();
  try {
    const res = await send();
    await res.arrayBuffer();
    return { ms: performance.now() - t0, ok: res.ok, status: res.status };
  } catch {
    return { ms: performance.now() - t0, ok: false, status: 0 };
  }
}

/** `concurrency` workers send back to back until `total` requests are done. */
export async function maxThroughput(send: Send, total: number, concurrency: number): Promise<Figures> {
  const latencies: number[] = [];
  let next = 0;
  const failed: number[] = [];
  const started = performance.now();
  const worker = async () => {
    while (next < total) {
      next++;
      const { ms, ok, status } = await timed(send);
      latencies.push(ms);
      if (!ok) failed.push(status);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return figures(latencies, (performance.now() - started) / 1000, failed);
}

/**
 * Sends at a fixed rate whatever the answers do (open loop), so latency is measured without
 * the coordinated omission a closed loop hides behind slow answers.
 */
export async function fixedRate(send: Send, perSecond: number, seconds: number): Promise<Figures> {
  const total = Math.round(perSecond * seconds);
  const interval = 1000 / perSecond;
  const started = performance.now();
  const failed: number[] = [];
  const runs: Array<Promise<number>> = [];
  for (let i = 0; i < total; i++) {
    const due = started + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    runs.push(
      timed(send).then(({ ms, ok, status }) => {
        if (!ok) failed.push(status);
        return ms;
      }),
    );
  }
  const latencies = await Promise.all(runs);
  return figures(latencies, (performance.now() - started) / 1000, failed);
}

export function formatFigures(name: string, f: Figures): string {
  return [
    name.padEnd(44),
    `${f.requestsPerSecond.toFixed(0).padStart(6)} req/s`,
    `p50 ${f.p50.toFixed(2).padStart(7)} ms`,
    `p95 ${f.p95.toFixed(2).padStart(7)} ms`,
    `p99 ${f.p99.toFixed(2).padStart(7)} ms`,
    f.failures ? `FAILURES ${f.failures} ${JSON.stringify(f.failureStatuses)}` : '',
  ].join('  ');
}
