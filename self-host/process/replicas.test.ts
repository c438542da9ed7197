import type { ChildProcess } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Child, ChildExit } from './children';
import { EXIT_GRACE_MS, startReplicas } from './replicas';

interface FakeChild extends Child {
  exit(exit: ChildExit): void;
  stopped: boolean;
}

let nextPid = 100;
function fakeChild(name: string): FakeChild {
  let settle: (exit: ChildExit) => void = () => {};
  const exited = new Promise<ChildExit>((resolve) => {
    settle = resolve;
  });
  const child: FakeChild = {
    name,
    process: { pid: nextPid++ } as ChildProcess,
    exited,
    stopped: false,
    exit: (exit) => settle(exit),
    async stop() {
      child.stopped = true;
      settle({ code: 0, signal: null });
    },
  };
  return child;
}

const BACKOFF = { initialMs: 500, maxMs: 2_000, stableMs: 10_000 };
const KILLED = { code: null, signal: 'SIGKILL' as const };

function replicaSet(count: number) {
  const spawned: FakeChild[] = [];
  const log: string[] = [];
  const replicas = startReplicas({
    count,
    spawn: (index) => {
      const child = fakeChild(`gateway-${index + 1}`);
      spawned.push(child);
      return child;
    },
    log: (line) => log.push(line),
    backoff: BACKOFF,
  });
  return { replicas, spawned, log };
}

describe('replicas', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts N processes, and reports an exit during start-up instead of restarting', async () => {
    const { replicas, spawned } = replicaSet(3);
    expect(spawned.map((c) => c.name)).toEqual(['gateway-1', 'gateway-2', 'gateway-3']);
    spawned[1]!.exit({ code: 1, signal: null });
    expect(await replicas.failure).toBe('gateway-2 exited (exit code 1)');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(spawned).toHaveLength(3);
  });

  it('restarts a process that dies once running, with a doubling delay, and logs it', async () => {
    const { replicas, spawned, log } = replicaSet(2);
    replicas.running();
    spawned[0]!.exit(KILLED);
    await vi.advanceTimersByTimeAsync(EXIT_GRACE_MS + BACKOFF.initialMs - 1);
    expect(spawned).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(spawned.map((c) => c.name)).toEqual(['gateway-1', 'gateway-2', 'gateway-1']);
    expect(log).toEqual([
      `gateway-1 (pid ${spawned[0]!.process.pid}) exited (signal SIGKILL) unexpectedly; restarting it in 0.5 s`,
      `gateway-1 restarted (pid ${spawned[2]!.process.pid})`,
    ]);
    expect(replicas.pids()).toEqual([spawned[2]!.process.pid, spawned[1]!.process.pid]);

    // Straight away again: twice the delay, then the cap.
    spawned[2]!.exit(KILLED);
    await vi.advanceTimersByTimeAsync(EXIT_GRACE_MS + 2 * BACKOFF.initialMs);
    expect(spawned).toHaveLength(4);
    for (const expected of [5, 6]) {
      spawned.at(-1)!.exit(KILLED);
      await vi.advanceTimersByTimeAsync(EXIT_GRACE_MS + BACKOFF.maxMs);
      expect(spawned).toHaveLength(expected);
    }
    expect(log.filter((line) => line.includes('restarting it in'))).toEqual([
      expect.stringContaining('in 0.5 s'),
      expect.stringContaining('in 1 s'),
      expect.stringContaining('in 2 s'),
      expect.stringContaining('in 2 s'),
    ]);
    // A long run before the next crash starts the delays over.
    await vi.advanceTimersByTimeAsync(BACKOFF.stableMs);
    spawned.at(-1)!.exit(KILLED);
    await vi.advanceTimersByTimeAsync(EXIT_GRACE_MS);
    expect(log.at(-1)).toContain('restarting it in 0.5 s');
  });

  it('restarts nothing once stopping, even an exit seen just before (a signal to the group)', async () => {
    const { replicas, spawned, log } = replicaSet(2);
    replicas.running();
    spawned[0]!.exit({ code: null, signal: 'SIGINT' });
    await vi.advanceTimersByTimeAsync(EXIT_GRACE_MS - 1);
    replicas.stopping();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(spawned).toHaveLength(2);
    expect(log).toEqual([]);
    await replicas.stop();
    expect(spawned[1]!.stopped).toBe(true);
    expect(replicas.pids()).toEqual([]);
  });

  it('stop() cancels a pending restart and stops the live processes', async () => {
    const { replicas, spawned } = replicaSet(2);
    replicas.running();
    spawned[1]!.exit(KILLED);
    await vi.advanceTimersByTimeAsync(EXIT_GRACE_MS);
    await replicas.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(spawned).toHaveLength(2);
    expect(spawned[0]!.stopped).toBe(true);
  });
});
