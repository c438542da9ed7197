/**
 * Reading Linux's /proc: CPU time, resident memory, parent, command line and environment of a
 * process. Parsers are pure (tested on captured text); readers return null for a process that
 * is gone, since stack processes may exit between a listing and a read.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcStat {
  pid: number;
  /** The executable's name as the kernel keeps it (at most 15 characters). */
  comm: string;
  ppid: number;
  /** utime + stime, in clock ticks (CLK_TCK a second): every thread's CPU time, living or exited. */
  cpuTicks: number;
}

/**
 * One /proc/<pid>/stat line. The name is in parentheses and may hold spaces or parentheses
 * itself, so fields are counted from the last ")" (man 5 proc: state is the 3rd field, ppid
 * the 4th, utime and stime the 14th and 15th).
 */
export function parseStat(text: string): ProcStat {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) throw new Error(`not a /proc/<pid>/stat line: ${text.slice(0, 80)}`);
  const rest = text
    .slice(close + 2)
    .trim()
    .split(' ');
  // rest[0] is field 3 (state): field n is rest[n - 3].
  return {
    pid: Number(text.slice(0, open).trim()),
    comm: text.slice(open + 1, close),
    ppid: Number(rest[1]),
    cpuTicks: Number(rest[11]) + Number(rest[12]),
  };
}

/** Busy and total jiffies of one CPU line of /proc/stat. */
export interface CpuTimes {
  busy: number;
  total: number;
}

/**
 * The per-CPU lines of /proc/stat (`cpu0 user nice system idle iowait irq softirq steal ...`):
 * idle and iowait are idle, the rest busy; guest time is already inside user.
 */
export function parseCpuTimes(stat: string): Map<string, CpuTimes> {
  const cpus = new Map<string, CpuTimes>();
  for (const line of stat.split('\n')) {
    const match = /^cpu(\d+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const [user, nice, system, idle, iowait, irq, softirq, steal] = match[2]!.trim().split(/\s+/).map(Number);
    const busy = (user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0);
    cpus.set(match[1]!, { busy, total: busy + (idle ?? 0) + (iowait ?? 0) });
  }
  return cpus;
}

/** Each CPU's busy share between two readings of /proc/stat (0.5: half the time busy). */
export function cpuBusyBetween(
  before: Map<string, CpuTimes>,
  after: Map<string, CpuTimes>,
): Record<string, number> {
  const busy: Record<string, number> = {};
  for (const [cpu, later] of after) {
    const earlier = before.get(cpu);
    if (!earlier || later.total <= earlier.total) continue;
    busy[cpu] = (later.busy - earlier.busy) / (later.total - earlier.total);
  }
  return busy;
}

export function readCpuTimes(): Map<string, CpuTimes> {
  return parseCpuTimes(readFileSync('/proc/stat', 'utf8'));
}

/** VmRSS of a /proc/<pid>/status text, in kB (0 for a kernel thread or a zombie, which have none). */
export function parseVmRssKb(status: string): number {
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  return match ? Number(match[1]) : 0;
}

/** A NUL-separated /proc file (cmdline, environ) as its items. */
export function splitNul(raw: string): string[] {
  return raw.split('\0').filter((item) => item.length > 0);
}

/** NAME=value items as a record (a value may contain "="). */
export function parseEnviron(raw: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const item of splitNul(raw)) {
    const eq = item.indexOf('=');
    if (eq > 0) env[item.slice(0, eq)] = item.slice(eq + 1);
  }
  return env;
}

/** Every process below `root` (root included), given the (pid, ppid) pairs of the system. */
export function descendants(root: number, parents: ReadonlyMap<number, number>): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of parents) {
    const list = children.get(ppid);
    if (list) list.push(pid);
    else children.set(ppid, [pid]);
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    found.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return found;
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

export function readStat(pid: number): ProcStat | null {
  const text = readOrNull(`/proc/${pid}/stat`);
  return text === null ? null : parseStat(text);
}

export function readRssKb(pid: number): number {
  const text = readOrNull(`/proc/${pid}/status`);
  return text === null ? 0 : parseVmRssKb(text);
}

export function readCmdline(pid: number): string[] {
  return splitNul(readOrNull(`/proc/${pid}/cmdline`) ?? '');
}

/** A process's environment as it was started (readable for processes of the same user). */
export function readEnviron(pid: number): Record<string, string> {
  return parseEnviron(readOrNull(`/proc/${pid}/environ`) ?? '');
}

/** The process tree under `root`, read now (root included, if it still runs). */
export function processTree(root: number): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (stat) parents.set(stat.pid, stat.ppid);
  }
  return parents.has(root) ? descendants(root, parents) : [];
}

let ticks: number | undefined;

/** Clock ticks per second of utime/stime (100 on Linux nearly everywhere). */
export function ticksPerSecond(): number {
  ticks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return ticks;
}
