import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { findExecutable } from '../../self-host/process/executables';

/**
 * Where things run: wrk and the fake upstream on one core, the stack on the other, as the team
 * benchmark pins them (so the stack's CPU time is not stolen by the load generator). With one
 * core, or without taskset, nothing is pinned and the report says so.
 */
export interface CpuPlan {
  /** taskset CPU list of wrk, nginx and the bench itself; null when not pinning. */
  load: string | null;
  /** taskset CPU list of the stack (and of the fresh workerd of the start-up probe). */
  stack: string | null;
  cores: number;
  note: string;
}

export function cpuPlan(env: NodeJS.ProcessEnv): CpuPlan {
  const cores = availableParallelism();
  if (env.BENCH_PIN === '0') return { load: null, stack: null, cores, note: 'pinning off (BENCH_PIN=0)' };
  if (cores < 2) return { load: null, stack: null, cores, note: `${cores} core: nothing pinned` };
  if (!hasTaskset()) return { load: null, stack: null, cores, note: 'no taskset: nothing pinned' };
  const load = env.BENCH_LOAD_CPU ?? '0';
  const stack = env.BENCH_STACK_CPU ?? '1';
  return { load, stack, cores, note: `wrk + fake upstream on CPU ${load}, stack on CPU ${stack}` };
}

/**
 * `command args` run on `cpus` through taskset (which execs it: the pid stays the command's).
 * taskset by its full path: a child given an environment of its own may have no PATH.
 */
export function pinned(cpus: string | null, command: string, args: string[]): [string, string[]] {
  return cpus === null
    ? [command, args]
    : [findExecutable('taskset') ?? 'taskset', ['-c', cpus, command, ...args]];
}

/** Moves this process (the bench's own bookkeeping) onto the load generator's core. */
export function pinSelf(cpus: string | null): void {
  if (cpus !== null) execFileSync('taskset', ['-p', '-c', cpus, String(process.pid)], { stdio: 'ignore' });
}

function hasTaskset(): boolean {
  return findExecutable('taskset') !== null;
}
