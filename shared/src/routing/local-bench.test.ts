import { describe, expect, it } from 'vitest';
import { afterOutcome, type LocalRouteState, mergedState } from './local-bench';
import { HEALTHY } from './route-health';

const POLICY = { failures: 3, windowMs: 30_000, cooldownMs: 10_000, maxCooldownMs: 300_000 };
const fresh: LocalRouteState = { ...HEALTHY, since: 0 };

describe('afterOutcome', () => {
  it('benches at the policy’s count of failures within the window, as the store’s script does', () => {
    let state = fresh;
    for (const at of [1_000, 2_000]) state = afterOutcome(state, 'failed', at, POLICY);
    expect(state).toMatchObject({ failures: 2, benchedUntil: 0 });
    state = afterOutcome(state, 'failed', 3_000, POLICY);
    expect(state).toMatchObject({ level: 1, benchedUntil: 13_000, failures: 0 });
    // Failures while benched were sent before the bench was known.
    expect(afterOutcome(state, 'failed', 5_000, POLICY)).toBe(state);
    // On probation after the bench: one failure benches it again, twice as long.
    expect(afterOutcome(state, 'failed', 14_000, POLICY)).toMatchObject({ level: 2, benchedUntil: 34_000 });
    expect(afterOutcome(state, 'succeeded', 14_000, POLICY)).toMatchObject(HEALTHY);
  });

  it('starts a new window when the last began longer ago than the window', () => {
    const two = afterOutcome(afterOutcome(fresh, 'failed', 1_000, POLICY), 'failed', 2_000, POLICY);
    expect(afterOutcome(two, 'failed', 40_000, POLICY)).toMatchObject({ failures: 1, since: 40_000 });
  });
});

describe('mergedState', () => {
  it('takes whichever copy is benched longer', () => {
    const stored = { ...HEALTHY, benchedUntil: 5_000, level: 1 };
    const local = { ...HEALTHY, benchedUntil: 9_000, level: 1, since: 0 };
    expect(mergedState(stored, local)).toBe(local);
    expect(mergedState(stored, { ...HEALTHY, since: 0 })).toBe(stored);
    expect(mergedState(undefined, undefined)).toEqual(HEALTHY);
  });
});
