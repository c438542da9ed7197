import { describe, expect, it } from 'vitest';
import { benchPolicyOf } from './route-health';

const ENV = {
  SLUICE_ROUTE_BENCH_FAILURES: 3,
  SLUICE_ROUTE_BENCH_WINDOW_MS: 30_000,
  SLUICE_ROUTE_BENCH_COOLDOWN_MS: 10_000,
  SLUICE_ROUTE_BENCH_MAX_COOLDOWN_MS: 300_000,
};

describe('benchPolicyOf', () => {
  it('is the environment settings SLUICE_ROUTE_BENCH_*', () => {
    expect(benchPolicyOf(ENV)).toEqual({
      failures: 3,
      windowMs: 30_000,
      cooldownMs: 10_000,
      maxCooldownMs: 300_000,
    });
  });

  it('never benches for longer at most than at first', () => {
    const policy = benchPolicyOf({ ...ENV, SLUICE_ROUTE_BENCH_MAX_COOLDOWN_MS: 5_000 });
    expect(policy.maxCooldownMs).toBe(10_000);
  });
});
