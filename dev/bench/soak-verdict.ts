/**
 * The soak's judgement: the last interval against the first. At a fixed rate a healthy stack
 * keeps its throughput and its p99, and its processes' memory levels off; a leak or a growing
 * queue shows as RSS growth or a p99 that climbs.
 */
import { type PerRole, perRole, ROLES } from './stack-processes';

export interface SoakInterval {
  index: number;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Socket errors and non-2xx answers. */
  failures: number;
  rssMb: PerRole<number>;
  /** CPU time over wall time: 1.0 is one core busy. */
  cores: PerRole<number>;
  /** Each CPU's busy share (/proc/stat), whoever used it: shows load from outside the bench. */
  cpuBusy: Record<string, number>;
}

export interface SoakVerdict {
  stable: boolean;
  /** Relative changes, last interval against the first (0.05 is +5 %). */
  rpsChange: number;
  p99Change: number;
  rssGrowthMb: PerRole<number>;
  rssGrowth: PerRole<number>;
  failures: number;
  line: string;
}

const pct = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)} %`;
const mb = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(1)} MB`;

/** Share of a core others may use on the stack's CPU (Redis, the kernel...) before it is called interference. */
const FOREIGN_LOAD = 0.15;

/** How much of the stack's CPU something other than the stack used in an interval. */
export function foreignLoad(interval: SoakInterval, stackCpu: string): number {
  const busy = interval.cpuBusy[stackCpu];
  if (busy === undefined) return 0;
  const own = ROLES.reduce((sum, role) => sum + interval.cores[role], 0);
  return Math.max(0, busy - own);
}

/**
 * Last interval against the first. `stackCpu` (when the stack was pinned) lets the verdict say
 * when other processes took the stack's CPU in either interval: the comparison is then unreliable.
 */
export function soakVerdict(
  intervals: SoakInterval[],
  tolerance = 0.1,
  stackCpu: string | null = null,
): SoakVerdict {
  const first = intervals[0];
  const last = intervals.at(-1);
  if (!first || !last) throw new Error('a soak verdict needs at least one interval');
  const rpsChange = last.requestsPerSecond / first.requestsPerSecond - 1;
  const p99Change = last.p99Ms / first.p99Ms - 1;
  const rssGrowthMb = perRole(() => 0);
  const rssGrowth = perRole(() => 0);
  for (const role of ROLES) {
    rssGrowthMb[role] = last.rssMb[role] - first.rssMb[role];
    rssGrowth[role] = first.rssMb[role] > 0 ? rssGrowthMb[role] / first.rssMb[role] : 0;
  }
  const failures = intervals.reduce((sum, interval) => sum + interval.failures, 0);
  const problems: string[] = [];
  if (intervals.length < 2) problems.push('only one interval: nothing to compare');
  if (rpsChange < -tolerance) problems.push(`req/s ${pct(rpsChange)}`);
  if (p99Change > tolerance) problems.push(`p99 ${pct(p99Change)}`);
  for (const role of ROLES) {
    if (rssGrowth[role] > tolerance)
      problems.push(`${role} RSS ${mb(rssGrowthMb[role])} (${pct(rssGrowth[role])})`);
  }
  if (failures > 0) problems.push(`${failures} failed requests`);
  const limit = `${(tolerance * 100).toFixed(0)} %`;
  const rss = ROLES.filter((role) => first.rssMb[role] > 0)
    .map((role) => `${role} ${mb(rssGrowthMb[role])}`)
    .join(', ');
  const figures = `last vs first interval: req/s ${pct(rpsChange)}, p99 ${pct(p99Change)}; RSS ${rss}`;
  const foreign = stackCpu === null ? 0 : Math.max(foreignLoad(first, stackCpu), foreignLoad(last, stackCpu));
  const caution =
    foreign > FOREIGN_LOAD
      ? `; CAUTION: other processes used up to ${(foreign * 100).toFixed(0)} % of CPU ${stackCpu} in the first or last interval, so the comparison is unreliable`
      : '';
  const line =
    problems.length === 0
      ? `soak verdict: STABLE (${figures}; every change within ${limit})${caution}`
      : `soak verdict: NOT STABLE: ${problems.join('; ')} (limit ${limit}; ${figures})${caution}`;
  return { stable: problems.length === 0, rpsChange, p99Change, rssGrowthMb, rssGrowth, failures, line };
}

/**
 * Interval length: a minute, as asked, unless the soak is shorter than three of them; then a
 * sixth of it (at least 5 s), so a short trial soak still has a first and a last to compare.
 */
export function soakInterval(totalSeconds: number, wanted = 60): number {
  if (totalSeconds >= 3 * wanted) return wanted;
  return Math.max(5, Math.floor(totalSeconds / 6));
}
