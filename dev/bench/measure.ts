/** Load generators for `npm run bench`: closed-loop (max throughput) and open-loop (fixed rate). */

export type Send = () => Promise<Response>;

export interface Figures {
  requestsPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  failures: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

function figures(latencies: number[], seconds: number, failures: number): Figures {
  latencies.sort((a, b) => a - b);
  return {
    requestsPerSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    failures,
  };
}

async function timed(send: Send): Promise<{ ms: number; ok: boolean }> {
  const t0 = performance.now();
  const res = await send();
  await res.arrayBuffer();
  return { ms: performance.now() - t0, ok: res.ok };
}

/** `concurrency` workers send back to back until `total` requests are done. */
export async function maxThroughput(send: Send, total: number, concurrency: number): Promise<Figures> {
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < total) {
      next++;
      const { ms, ok } = await timed(send);
      latencies.push(ms);
      if (!ok) failures++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return figures(latencies, (performance.now() - started) / 1000, failures);
}

/**
 * Sends at a fixed rate whatever the answers do (open loop), so latency is measured without
 * the coordinated omission a closed loop hides behind slow answers.
 */
export async function fixedRate(send: Send, perSecond: number, seconds: number): Promise<Figures> {
  const total = Math.round(perSecond * seconds);
  const interval = 1000 / perSecond;
  const started = performance.now();
  let failures = 0;
  const runs: Array<Promise<number>> = [];
  for (let i = 0; i < total; i++) {
    const due = started + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    runs.push(
      timed(send).then(({ ms, ok }) => {
        if (!ok) failures++;
        return ms;
      }),
    );
  }
  const latencies = await Promise.all(runs);
  return figures(latencies, (performance.now() - started) / 1000, failures);
}

export function formatFigures(name: string, f: Figures): string {
  return [
    name.padEnd(44),
    `${f.requestsPerSecond.toFixed(0).padStart(6)} req/s`,
    `p50 ${f.p50.toFixed(2).padStart(7)} ms`,
    `p95 ${f.p95.toFixed(2).padStart(7)} ms`,
    `p99 ${f.p99.toFixed(2).padStart(7)} ms`,
    f.failures ? `FAILURES ${f.failures}` : '',
  ].join('  ');
}
