/**
 * One measured run: a load against one target, with the CPU time its process tree spent,
 * read from /proc/<pid>/stat (utime + stime, every thread, in clock ticks) before the load and
 * after it plus a short settle (work a target does after answering, such as writing its logs,
 * belongs to the requests). CPU per request is that time over the requests answered; it is the
 * steadiest figure on a shared machine, since it does not depend on how much of the core the
 * target got. The share of the system-under-test CPU that other processes took meanwhile is
 * read from /proc/stat, so a disturbed run shows.
 */
import { cpuBusyBetween, readCpuTimes, ticksPerSecond } from '../dev/bench/proc';
import type { LoadResult } from './load/request';
import type { Mode, Target } from './options';
import type { CpuSnapshot, RunningTarget } from './targets';

export type Phase = 'tput' | 'lat';

export interface RunRow {
  round: number;
  phase: Phase;
  mode: Mode;
  target: Target;
  load: LoadResult;
  /** µs of CPU per answered request, whole process tree; null without answers. */
  cpuUsPerRequest: number | null;
  /** Cores the target kept busy during the load (1 = one core all the time). */
  cpuCores: number;
  /** µs per request by part of the tree (Sluice: gateway, bridge, console, other). */
  parts: Record<string, number>;
  /** Share of the system-under-test CPUs busy with other processes; null when not pinned. */
  sutOther: number | null;
  /**
   * The connections each gateway process held a second into a closed-loop load, fewest first
   * (Sluice with several processes); null otherwise.
   */
  connections: number[] | null;
}

/** When the gateway processes' connections are counted: wrk has opened all of its own. */
const CONNECTIONS_AT_MS = 1_000;

/** `1`, `1,3` or `1-3` as CPU numbers. */
export function cpuList(spec: string): string[] {
  const cpus: string[] = [];
  for (const item of spec.split(',')) {
    const [from, to] = item.split('-').map(Number);
    if (from === undefined || Number.isNaN(from)) continue;
    for (let cpu = from; cpu <= (to ?? from); cpu++) cpus.push(String(cpu));
  }
  return cpus;
}

function cpuDelta(before: CpuSnapshot, after: CpuSnapshot): Map<string, number> {
  const ticks = new Map<string, number>();
  for (const [pid, now] of after) {
    const earlier = before.get(pid)?.ticks ?? 0;
    ticks.set(now.part, (ticks.get(now.part) ?? 0) + Math.max(0, now.ticks - earlier));
  }
  return ticks;
}

export async function measure(
  where: { round: number; phase: Phase; mode: Mode },
  target: RunningTarget,
  load: () => Promise<LoadResult>,
  opts: { settleMs: number; sutCpus: string | null },
): Promise<RunRow> {
  const hz = ticksPerSecond();
  const cpuBefore = target.readCpu();
  const coresBefore = readCpuTimes();
  const started = performance.now();
  const countConnections = where.phase === 'tput' ? target.connectionsByProcess : undefined;
  const connections = countConnections
    ? new Promise<number[]>((resolve) => setTimeout(() => resolve(countConnections()), CONNECTIONS_AT_MS))
    : Promise.resolve(null);
  const result = await load();
  const loadS = (performance.now() - started) / 1000;
  if (opts.settleMs > 0) await new Promise((r) => setTimeout(r, opts.settleMs));
  const windowS = (performance.now() - started) / 1000;
  const ticks = cpuDelta(cpuBefore, target.readCpu());
  const busy = cpuBusyBetween(coresBefore, readCpuTimes());
  const totalS = [...ticks.values()].reduce((a, b) => a + b, 0) / hz;
  const perRequest = (seconds: number) => (result.requests > 0 ? (seconds * 1e6) / result.requests : null);
  const parts: Record<string, number> = {};
  for (const [part, n] of ticks) parts[part] = perRequest(n / hz) ?? Number.NaN;
  let sutOther: number | null = null;
  // The fake upstream (direct) runs on the load CPU: the other CPU's activity is not about it.
  if (opts.sutCpus !== null && target.name !== 'direct') {
    const cpus = cpuList(opts.sutCpus);
    const shares = cpus.map((cpu) => busy[cpu]).filter((share): share is number => share !== undefined);
    if (shares.length > 0) {
      const busyCores = shares.reduce((a, b) => a + b, 0);
      const own = totalS / windowS;
      sutOther = Math.max(0, (busyCores - own) / cpus.length);
    }
  }
  return {
    ...where,
    target: target.name,
    load: result,
    cpuUsPerRequest: perRequest(totalS),
    cpuCores: totalS / loadS,
    parts,
    sutOther,
    connections: await connections,
  };
}
