import { describe, expect, it } from 'vitest';
import { busyOverLoad, type LoadMark } from './measure-run';
import { parseCpuTimes } from './proc';
import type { StackProcess } from './stack-processes';

const stack = (gatewayTicks: number, consoleTicks: number) =>
  new Map<number, StackProcess>([
    [10, { pid: 10, role: 'gateway', comm: 'workerd', cpuTicks: gatewayTicks, rssKb: 1 }],
    [11, { pid: 11, role: 'console', comm: 'node', cpuTicks: consoleTicks, rssKb: 1 }],
  ]);

describe('busy shares of a measured run', () => {
  it('are read over the load alone, so an idle settle after it does not dilute them', () => {
    const start: LoadMark = {
      at: 0,
      cpus: parseCpuTimes('cpu1 1000 0 0 1000 0 0 0 0 0 0\n'),
      stack: stack(0, 0),
    };
    // 5 s of load at 100 ticks a second: the gateway ran 490 ticks, the console 10; CPU 1 was
    // busy 490 of 500 ticks.
    const end: LoadMark = {
      at: 5000,
      cpus: parseCpuTimes('cpu1 1490 0 0 1010 0 0 0 0 0 0\n'),
      stack: stack(490, 10),
    };
    const shares = busyOverLoad(start, end, 100);
    expect(shares.cores.gateway).toBeCloseTo(0.98, 5);
    expect(shares.cores.console).toBeCloseTo(0.02, 5);
    expect(shares.cores.bridge).toBe(0);
    expect(shares.cpuBusy).toEqual({ '1': 0.98 });
  });

  it('are 0 for a window of no length rather than dividing by it', () => {
    const mark: LoadMark = { at: 10, cpus: parseCpuTimes('cpu1 5 0 0 5 0 0 0 0 0 0\n'), stack: stack(3, 3) };
    expect(busyOverLoad(mark, mark, 100).cores.gateway).toBe(0);
  });
});
