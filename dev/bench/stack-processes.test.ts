import { describe, expect, it } from 'vitest';
import {
  classify,
  cpuSecondsBetween,
  rssMbByRole,
  type StackProcess,
  type StackSnapshot,
} from './stack-processes';

function snapshot(processes: Array<Omit<StackProcess, 'comm'>>): StackSnapshot {
  return new Map(processes.map((p) => [p.pid, { ...p, comm: 'x' }]));
}

describe('stack processes', () => {
  it('tells the supervisor (bridge), workerd, the console and anything else apart', () => {
    expect(classify(100, 100, 'node', ['node', '--import', 'tsx', 'self-host/serve.ts'])).toBe('bridge');
    expect(classify(101, 100, 'workerd', ['/x/workerd', 'serve', 'c.capnp'])).toBe('gateway');
    expect(
      classify(102, 100, 'node', ['/usr/bin/node', '--import', 'tsx', '/w/console-server/src/main.ts']),
    ).toBe('console');
    expect(classify(103, 100, 'esbuild', ['esbuild', '--service'])).toBe('other');
  });

  it('sums CPU per role between snapshots; a process started in between counts whole', () => {
    const before = snapshot([
      { pid: 1, role: 'bridge', cpuTicks: 100, rssKb: 0 },
      { pid: 2, role: 'gateway', cpuTicks: 1000, rssKb: 0 },
      { pid: 9, role: 'other', cpuTicks: 5, rssKb: 0 },
    ]);
    const after = snapshot([
      { pid: 1, role: 'bridge', cpuTicks: 150, rssKb: 0 },
      { pid: 2, role: 'gateway', cpuTicks: 1300, rssKb: 0 },
      { pid: 3, role: 'console', cpuTicks: 4, rssKb: 0 },
    ]);
    expect(cpuSecondsBetween(before, after, 100)).toEqual({
      bridge: 0.5,
      gateway: 3,
      console: 0.04,
      other: 0,
    });
  });

  it('adds resident memory per role, in MB', () => {
    const now = snapshot([
      { pid: 1, role: 'bridge', cpuTicks: 0, rssKb: 102_400 },
      { pid: 2, role: 'other', cpuTicks: 0, rssKb: 512 },
      { pid: 3, role: 'other', cpuTicks: 0, rssKb: 512 },
    ]);
    expect(rssMbByRole(now)).toEqual({ gateway: 0, bridge: 100, console: 0, other: 1 });
  });
});
