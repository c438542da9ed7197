import { describe, expect, it } from 'vitest';
import { soakLine } from './soak';
import type { SoakInterval } from './soak-verdict';

const interval: SoakInterval = {
  index: 2,
  seconds: 60,
  requestsPerSecond: 1196.4,
  p50Ms: 3.42,
  p99Ms: 171.2,
  failures: 0,
  rssMb: { gateway: 339.4, bridge: 124, console: 113, other: 0 },
  cores: { gateway: 0.7, bridge: 0.25, console: 0.004, other: 0 },
  cpuBusy: { '0': 0.31, '1': 0.96 },
};

describe('soak lines', () => {
  it('print the interval’s end, throughput, latency, each role’s RSS and CPU, and each CPU’s load', () => {
    expect(soakLine(interval, 60)).toBe(
      '  min 2   1,196 req/s  p50 3.42 ms  p99 171 ms  failed 0  RSS/CPU: gateway 339 MB 70%, ' +
        'bridge 124 MB 25%, console 113 MB 0%  busy: cpu0 31% cpu1 96%',
    );
  });

  it('count seconds when intervals are shorter than a minute', () => {
    expect(soakLine({ ...interval, index: 3 }, 10)).toMatch(/^ {3}30 s {3}1,196 req\/s/);
  });
});
