import type { ChildProcess } from 'node:child_process';

/**
 * Stops a child started with `detached: true` (a process group of its own): SIGTERM to its
 * leader, which stops its own children in order; after `graceMs` SIGKILL to the whole group.
 */
export async function stopProcessGroup(child: ChildProcess, graceMs: number): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  const exited =
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => child.once('exit', () => resolve()));
  signalGroup(pid, 'SIGTERM', child);
  const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), graceMs).unref());
  if ((await Promise.race([exited, timer])) === 'timeout') {
    signalGroup(pid, 'SIGKILL', child);
    await exited;
  }
  // Anything the leader left behind in its group goes too.
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {}
}

function signalGroup(pid: number, signal: NodeJS.Signals, child: ChildProcess): void {
  try {
    // The leader first: a supervisor stops its children in order when it alone is signalled.
    if (signal === 'SIGTERM') child.kill(signal);
    else process.kill(-pid, signal);
  } catch {}
}
