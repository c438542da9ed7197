import { describe, expect, it } from 'vitest';
import { Budget, bridgeLimitsFromEnv, DEFAULT_BRIDGE_LIMITS } from './limits';

describe('bridge budgets', () => {
  it('takes what fits, refuses what does not without taking any of it, and gives back', () => {
    const budget = new Budget('Redis commands', 10);
    expect(budget.tryTake(7)).toBe(true);
    expect(budget.tryTake(4)).toBe(false);
    expect(budget.inUse).toBe(7);
    expect(budget.overloaded()).toBe(
      'store bridge overloaded: 7 Redis commands already in flight (limit 10); retry later',
    );
    budget.give(7);
    expect(budget.tryTake(10)).toBe(true);
    // What was let through, refusals not included: the bridge's command and statement counts.
    expect(budget.admitted).toBe(17);
  });

  it('reads SLUICE_BRIDGE_* overrides and refuses nonsense', () => {
    expect(bridgeLimitsFromEnv({})).toEqual(DEFAULT_BRIDGE_LIMITS);
    expect(
      bridgeLimitsFromEnv({ SLUICE_BRIDGE_MAX_COMMANDS: '500', SLUICE_BRIDGE_PG_POOL_SIZE: '4' }),
    ).toMatchObject({ maxCommandsInFlight: 500, pgPoolSize: 4, maxQueriesInFlight: 1_000 });
    expect(() => bridgeLimitsFromEnv({ SLUICE_BRIDGE_MAX_BYTES: '0' })).toThrow(/SLUICE_BRIDGE_MAX_BYTES/);
  });
});
