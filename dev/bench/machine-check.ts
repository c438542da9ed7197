/**
 * A yardstick of the machine itself, taken on the stack's CPU before and after the runs: what
 * one system call costs, what a fixed piece of JavaScript costs back to back, and what it
 * costs when the core idled in between (as a request at the fixed rate finds it).
 *
 * Why: on the virtual machines this bench runs on, the same commit's figures moved by 2× within
 * minutes, with no steal time reported to tell a reader so; a system call cost 1.0–1.4 µs where
 * bare metal takes a few hundred ns at most. A report that carries its machine's figures can be
 * compared with another machine's, and a run made in a slow spell shows itself.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { pinned } from './cpus';
import { resultLine } from './result-line';
import { num } from './table';

const TASK = join(import.meta.dirname, 'machine-check-task.ts');

export interface MachineCheck {
  /** ns per getuid() system call. */
  syscallNs: number;
  /** µs of the fixed JavaScript task, back to back (warm caches). */
  taskUs: number;
  /** µs of the same task when it starts gapMs after the previous one ended. */
  taskAfterGapUs: number;
  gapMs: number;
}

export function parseMachineCheck(output: string): MachineCheck {
  const get = resultLine(output, 'MACHINE', 'the machine check');
  return {
    syscallNs: get('syscall_ns'),
    taskUs: get('task_us'),
    taskAfterGapUs: get('task_after_gap_us'),
    gapMs: get('gap_ms'),
  };
}

/**
 * Runs the check on `cpus` (a few seconds); `gapMs` is the fixed rate's spacing, in whole
 * milliseconds as Node's timers keep them (at least 1).
 */
export async function checkMachine(cpus: string | null, gapMs: number, samples = 300): Promise<MachineCheck> {
  const [command, args] = pinned(cpus, process.execPath, [
    '--import',
    'tsx',
    TASK,
    String(Math.max(1, Math.round(gapMs))),
    String(samples),
  ]);
  const { stdout } = await promisify(execFile)(command, args, { timeout: 60_000 });
  return parseMachineCheck(stdout);
}

/** The check before and after the runs, side by side: "syscall 1,100 → 1,120 ns; …". */
export function describeMachineChecks(before: MachineCheck, after: MachineCheck | null): string {
  const pair = (a: number, b: number | undefined) => (b === undefined ? num(a) : `${num(a)} → ${num(b)}`);
  return (
    `syscall ${pair(before.syscallNs, after?.syscallNs)} ns; JS task ${pair(before.taskUs, after?.taskUs)} µs, ` +
    `${before.gapMs} ms after the last ${pair(before.taskAfterGapUs, after?.taskAfterGapUs)} µs`
  );
}
