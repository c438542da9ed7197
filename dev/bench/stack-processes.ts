/**
 * The stack's processes by role, and their CPU time and memory. The supervisor (serve.ts or
 * start.ts) is the process the bench started; it runs the store bridge in its own event loop,
 * so its CPU is "the bridge's" (plus supervising, which costs nothing under load; under
 * `BENCH_MODE=start` also Miniflare's Node side). workerd is the gateway runtime, the console is
 * recognised by its entry file, and anything else under the supervisor is "other".
 */
import { processTree, readCmdline, readRssKb, readStat } from './proc';

export const ROLES = ['gateway', 'bridge', 'console', 'other'] as const;
export type ProcessRole = (typeof ROLES)[number];
export type PerRole<T> = Record<ProcessRole, T>;

export interface StackProcess {
  pid: number;
  role: ProcessRole;
  comm: string;
  cpuTicks: number;
  rssKb: number;
}

/** The stack at one moment: its processes by pid. */
export type StackSnapshot = Map<number, StackProcess>;

export function classify(pid: number, supervisor: number, comm: string, cmdline: string[]): ProcessRole {
  if (pid === supervisor) return 'bridge';
  if (comm === 'workerd') return 'gateway';
  if (cmdline.some((arg) => arg.endsWith('console-server/src/main.ts'))) return 'console';
  return 'other';
}

export function perRole<T>(make: () => T): PerRole<T> {
  return { gateway: make(), bridge: make(), console: make(), other: make() };
}

/** Reads the supervisor's process tree; a process's role is worked out once and kept. */
export function stackReader(supervisor: number): () => StackSnapshot {
  const roles = new Map<number, ProcessRole>();
  return () => {
    const snapshot: StackSnapshot = new Map();
    for (const pid of processTree(supervisor)) {
      const stat = readStat(pid);
      if (!stat) continue;
      let role = roles.get(pid);
      if (!role) {
        role = classify(pid, supervisor, stat.comm, readCmdline(pid));
        roles.set(pid, role);
      }
      snapshot.set(pid, { pid, role, comm: stat.comm, cpuTicks: stat.cpuTicks, rssKb: readRssKb(pid) });
    }
    return snapshot;
  };
}

/**
 * CPU seconds each role spent between two snapshots. A process started in between counts all
 * of its time; one that ended in between is lost (its last ticks are nowhere to read).
 */
export function cpuSecondsBetween(
  before: StackSnapshot,
  after: StackSnapshot,
  ticksPerSecond: number,
): PerRole<number> {
  const seconds = perRole(() => 0);
  for (const process of after.values()) {
    const earlier = before.get(process.pid)?.cpuTicks ?? 0;
    seconds[process.role] += Math.max(0, process.cpuTicks - earlier) / ticksPerSecond;
  }
  return seconds;
}

/** Resident memory of each role, in MB (1024 kB). */
export function rssMbByRole(snapshot: StackSnapshot): PerRole<number> {
  const mb = perRole(() => 0);
  for (const process of snapshot.values()) mb[process.role] += process.rssKb / 1024;
  return mb;
}

/** `pid comm` of each process by role, for the report's process list. */
export function describeProcesses(snapshot: StackSnapshot): PerRole<string[]> {
  const list = perRole<string[]>(() => []);
  for (const process of snapshot.values()) list[process.role].push(`${process.pid} ${process.comm}`);
  return list;
}
