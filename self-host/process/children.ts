import { type ChildProcess, spawn } from 'node:child_process';

/** How a child ended: its exit code, or the signal that ended it. */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Child {
  name: string;
  process: ChildProcess;
  /** Settles once the process has exited, for whatever reason. */
  exited: Promise<ChildExit>;
  /** SIGTERM, then SIGKILL after a grace period; resolves once the process is gone. */
  stop(): Promise<void>;
}

export interface SpawnChildOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Hide the child's own log lines (SLUICE_QUIET). */
  quiet: boolean;
  /** How long stop() waits after SIGTERM before SIGKILL. */
  graceMs?: number;
  /** Descriptors the child inherits as its fds 3, 4... (a listening socket it shares). */
  inheritFds?: number[];
}

/**
 * Starts a supervised child whose output is forwarded line by line as `[name] line`. The
 * child stays in the supervisor's process group: a signal to the group (Ctrl-C in a terminal,
 * `kill -TERM -- -PGID`, systemd's control-group kill) reaches it directly, and stop() ends it
 * by its pid when only the supervisor was signalled.
 */
export function spawnChild(name: string, command: string, args: string[], options: SpawnChildOptions): Child {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe', ...(options.inheritFds ?? [])],
  });
  forwardLines(child.stdout, process.stdout, name, options.quiet);
  forwardLines(child.stderr, process.stderr, name, options.quiet);
  const exited = new Promise<ChildExit>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    // A binary that cannot be started never emits 'exit'.
    child.once('error', () => resolve({ code: -1, signal: null }));
  });
  const graceMs = options.graceMs ?? 5000;
  return {
    name,
    process: child,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const force = setTimeout(() => child.kill('SIGKILL'), graceMs);
        child.kill('SIGTERM');
        await exited;
        clearTimeout(force);
      }
    },
  };
}

/** Forwards a stream's lines to `target` as `[name] line` (or only drains it when quiet). */
export function forwardLines(
  stream: NodeJS.ReadableStream | null,
  target: NodeJS.WriteStream,
  name: string,
  quiet: boolean,
): void {
  let pending = '';
  stream?.on('data', (chunk: Buffer) => {
    if (quiet) return; // still read, so the child never blocks on a full pipe
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) target.write(`[${name}] ${line}\n`);
  });
}

/** Describes an exit for a log line: "exit code 1" or "signal SIGSEGV". */
export function describeExit(exit: ChildExit): string {
  return exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`;
}
