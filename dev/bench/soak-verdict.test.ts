import { describe, expect, it } from 'vitest';
import { type SoakInterval, soakInterval, soakVerdict } from './soak-verdict';

function interval(index: number, rps: number, p99: number, gatewayMb: number, failures = 0): SoakInterval {
  return {
    index,
    seconds: 60,
    requestsPerSecond: rps,
    p50Ms: 1,
    p99Ms: p99,
    failures,
    rssMb: { gateway: gatewayMb, bridge: 100, console: 120, other: 0 },
    cores: { gateway: 0.4, bridge: 0.1, console: 0, other: 0 },
    cpuBusy: { '0': 0.3, '1': 0.55 },
  };
}

describe('soak verdict', () => {
  it('is stable when req/s, p99 and every RSS stay within 10 % of the first interval', () => {
    const verdict = soakVerdict([
      interval(1, 2000, 2.0, 200),
      interval(2, 1999, 2.5, 210),
      interval(3, 1990, 2.1, 205),
    ]);
    expect(verdict.stable).toBe(true);
    expect(verdict.rpsChange).toBeCloseTo(-0.005, 5);
    expect(verdict.p99Change).toBeCloseTo(0.05, 5);
    expect(verdict.rssGrowthMb.gateway).toBe(5);
    expect(verdict.line).toBe(
      'soak verdict: STABLE (last vs first interval: req/s −0.5 %, p99 +5.0 %; RSS gateway +5.0 MB, ' +
        'bridge +0.0 MB, console +0.0 MB; every change within 10 %)',
    );
  });

  it('names what moved: a p99 that climbed, memory that grew, failures', () => {
    const verdict = soakVerdict([interval(1, 2000, 2.0, 200), interval(2, 1700, 3.0, 260, 4)]);
    expect(verdict.stable).toBe(false);
    expect(verdict.line).toMatch(
      /^soak verdict: NOT STABLE: req\/s −15\.0 %; p99 \+50\.0 %; gateway RSS \+60\.0 MB \(\+30\.0 %\); 4 failed requests/,
    );
  });

  it('warns when something else used the stack’s CPU in the first or last interval', () => {
    const busy = { ...interval(2, 1999, 2.1, 201), cpuBusy: { '0': 0.3, '1': 0.99 } };
    expect(soakVerdict([interval(1, 2000, 2.0, 200), busy], 0.1, '1').line).toMatch(
      /^soak verdict: STABLE .*; CAUTION: other processes used up to 49 % of CPU 1 in the first or last interval/,
    );
    expect(
      soakVerdict([interval(1, 2000, 2.0, 200), interval(2, 1999, 2.1, 201)], 0.1, '1').line,
    ).not.toMatch(/CAUTION/);
  });

  it('cannot call one interval stable', () => {
    expect(soakVerdict([interval(1, 2000, 2, 200)]).stable).toBe(false);
  });

  it('reports per minute, or per sixth of a soak shorter than three minutes', () => {
    expect(soakInterval(600)).toBe(60);
    expect(soakInterval(180)).toBe(60);
    expect(soakInterval(60)).toBe(10);
    expect(soakInterval(20)).toBe(5);
  });
});
