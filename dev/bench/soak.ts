/**
 * Soak: json at a fixed rate for a long time, one wrk run per interval back to back, each
 * interval's throughput, latency, and every stack role's RSS and CPU printed as it ends.
 */
import { busyOverLoad, markLoad } from './measure-run';
import { ticksPerSecond } from './proc';
import type { SoakInterval } from './soak-verdict';
import { ROLES, rssMbByRole, type StackSnapshot } from './stack-processes';
import { num } from './table';
import { runWrk, type WrkLoad } from './wrk';

export interface SoakPlan {
  load: WrkLoad;
  totalSeconds: number;
  intervalSeconds: number;
  readStack(): StackSnapshot;
  /** Called with each interval as it ends (the bench prints it). */
  onInterval(interval: SoakInterval): void;
}

export async function runSoak(plan: SoakPlan): Promise<SoakInterval[]> {
  const intervals: SoakInterval[] = [];
  let left = plan.totalSeconds;
  while (left > 0) {
    const seconds = Math.min(plan.intervalSeconds, left);
    const start = markLoad(plan.readStack);
    const wrk = await runWrk({ ...plan.load, seconds });
    const end = markLoad(plan.readStack);
    const { cores, cpuBusy } = busyOverLoad(start, end, ticksPerSecond());
    const interval: SoakInterval = {
      index: intervals.length + 1,
      seconds,
      requestsPerSecond: wrk.requestsPerSecond,
      p50Ms: wrk.p50Ms,
      p99Ms: wrk.p99Ms,
      failures: wrk.errors + wrk.non2xx,
      rssMb: rssMbByRole(end.stack),
      cores,
      cpuBusy,
    };
    intervals.push(interval);
    plan.onInterval(interval);
    left -= seconds;
  }
  return intervals;
}

/**
 * One printed line per interval: time, req/s, p50/p99, RSS and CPU of each role, then how busy
 * each CPU was (more than the stack's own share on its CPU: something else ran there).
 */
export function soakLine(interval: SoakInterval, intervalSeconds: number): string {
  const end = interval.index * intervalSeconds;
  const at = intervalSeconds % 60 === 0 ? `min ${end / 60}` : `${end} s`;
  const roles = ROLES.filter((role) => interval.rssMb[role] > 0)
    .map((role) => `${role} ${num(interval.rssMb[role])} MB ${(interval.cores[role] * 100).toFixed(0)}%`)
    .join(', ');
  const cpus = Object.entries(interval.cpuBusy)
    .map(([cpu, busy]) => `cpu${cpu} ${(busy * 100).toFixed(0)}%`)
    .join(' ');
  return (
    `${at.padStart(7)}  ${num(interval.requestsPerSecond).padStart(6)} req/s  p50 ${num(interval.p50Ms)} ms` +
    `  p99 ${num(interval.p99Ms)} ms  failed ${interval.failures}  RSS/CPU: ${roles}  busy: ${cpus}`
  );
}
