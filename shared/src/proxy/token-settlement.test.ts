import { describe, expect, it } from 'vitest';
import type { LimitSubject, SubjectLimits } from '../limits/definitions';
import type { CounterAddition } from '../limits/sliding-window';
import { tokenAdditions } from '../limits/token-tally';
import type { ResolvedRoute } from '../routing/resolve';
import type { Background } from '../util/background';
import { settlementAdditions, tokenSettler } from './token-settlement';
import type { TokenSettlement } from './types';

const T = Date.parse('2026-11-26T10:00:00.000Z');
const subject: LimitSubject = { keyId: 'k1', userId: 'u1', rateLimitRpm: null };
const limits: SubjectLimits = {
  key: { rules: [{ kind: 'tokens', window: '1h', limit: 5_000 }], budgets: [] },
  user: { rules: [], budgets: [] },
};
const route = { routeId: 'r1', rpmCap: null, tpmCap: 1_000 } as ResolvedRoute;
const reserved: CounterAddition[] = [
  { key: 'sluice:rl:key:k1:tokens:1h', current: 7, bucketsInWindow: 60, expiryMs: 1, amount: 400 },
];
const settlement: TokenSettlement = { subject, route, weightedTokens: 120, nowMs: T, reserved };

describe('settlementAdditions', () => {
  it('adds the tokens on the subject and the route, and gives the reservation back', () => {
    const additions = settlementAdditions(settlement, limits);
    expect(additions).toEqual([
      ...tokenAdditions(subject, limits, { routeId: 'r1', rpmCap: null, tpmCap: 1_000 }, 120, T),
      { ...reserved[0], amount: -400 },
    ]);
    expect(additions.map((a) => a.amount).slice(-2)).toEqual([120, -400]);
    expect(additions.at(-2)?.key).toMatch(/r1/);
  });

  it('counts on the route alone without limits, and on no route for a cache hit or a direct route', () => {
    expect(settlementAdditions({ ...settlement, reserved: [] }, null)).toHaveLength(1);
    expect(settlementAdditions({ ...settlement, route: null, reserved: [] }, null)).toEqual([]);
    const direct = { ...route, routeId: null };
    expect(settlementAdditions({ ...settlement, route: direct, reserved: [] }, null)).toEqual([]);
  });
});

describe('tokenSettler', () => {
  function setup(cached: SubjectLimits | undefined, load: () => Promise<SubjectLimits>) {
    const added: { entries: readonly CounterAddition[]; keepAlive?: Background }[] = [];
    const loads: Background[] = [];
    const settle = tokenSettler(
      {
        peekLimits: () => cached,
        limits: (_subject, background) => {
          loads.push(background);
          return load();
        },
      },
      {
        add: async (entries, keepAlive) => {
          added.push({ entries, keepAlive });
        },
      },
    );
    return { settle, added, loads };
  }
  const keepAlive: Background = () => {};

  it('counts with the limits the isolate holds, handing the tally the request keepAlive', async () => {
    const { settle, added, loads } = setup(limits, () => Promise.reject(new Error('not loaded')));
    await settle(settlement, keepAlive);
    expect(loads).toEqual([]);
    expect(added).toEqual([{ entries: settlementAdditions(settlement, limits), keepAlive }]);
  });

  it('loads limits it does not hold, and counts on the route alone when they cannot be loaded', async () => {
    const loaded = setup(undefined, async () => limits);
    await loaded.settle(settlement, keepAlive);
    expect(loaded.loads).toHaveLength(1);
    expect(loaded.added[0]?.entries).toEqual(settlementAdditions(settlement, limits));
    const failing = setup(undefined, () => Promise.reject(new Error('store down')));
    await failing.settle(settlement, keepAlive);
    expect(failing.added[0]?.entries).toEqual(settlementAdditions(settlement, null));
  });
});
