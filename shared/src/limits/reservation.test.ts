import { describe, expect, it } from 'vitest';
import { admissionCounters } from './counters';
import type { LimitSubject, SubjectLimits } from './definitions';
import { releases, reservationTokens, reservedOn } from './reservation';

const T = Date.parse('2026-11-26T10:00:00.000Z');
const subject: LimitSubject = { keyId: 'k1', userId: 'u1', rateLimitRpm: null };
const limits: SubjectLimits = {
  key: {
    rules: [
      { kind: 'requests', window: '1m', limit: 10 },
      { kind: 'tokens', window: '1h', limit: 5_000 },
    ],
    budgets: [{ period: 'daily', limitTokens: 300 }],
  },
  user: { rules: [], budgets: [] },
};

describe('reservationTokens', () => {
  const weights = { inputWeight: 1, outputWeight: 3 };

  it('is the prompt and the output the request may produce, by the model weights', () => {
    expect(reservationTokens({ inputTokens: 100, maxOutputTokens: 50 }, weights, 4096)).toBe(100 + 150);
  });

  it('takes the output ceiling when the request names no cap or a higher one; 0 reserves the prompt only', () => {
    expect(reservationTokens({ inputTokens: 10, maxOutputTokens: null }, weights, 200)).toBe(10 + 600);
    expect(reservationTokens({ inputTokens: 10, maxOutputTokens: 32_000 }, weights, 200)).toBe(10 + 600);
    expect(reservationTokens({ inputTokens: 10, maxOutputTokens: 32_000 }, weights, 0)).toBe(10);
  });
});

describe('admission counters with a reservation', () => {
  it('count it on token rules and budgets only, at most a whole limit; requests still count 1', () => {
    const counters = admissionCounters(subject, limits, T, 400);
    const costs = Object.fromEntries(counters.map((c) => [c.label, c.cost]));
    expect(costs).toMatchObject({
      'key:requests/1m': 1,
      'key:tokens/1h': 400,
      'key:budget/daily': 300,
      'key:usage/req/daily': 1,
    });
  });

  it('without one, token rules and budgets are checked only (cost 0), as before', () => {
    const counters = admissionCounters(subject, limits, T);
    expect(counters.filter((c) => c.meta.kind === 'tokens').map((c) => c.cost)).toEqual([0, 0]);
  });

  it('are given back in the bucket and period they were taken in', () => {
    const counters = admissionCounters(subject, limits, T, 400);
    const reserved = reservedOn(counters);
    expect(reserved.map((r) => [r.key, r.amount])).toEqual([
      ['sluice:rl:key:k1:tokens:1h', 400],
      [expect.stringMatching(/^sluice:rl:key:k1:tok:/), 300],
    ]);
    const back = releases(reserved);
    expect(back.map((r) => r.amount)).toEqual([-400, -300]);
    expect(back.map((r) => r.current)).toEqual(reserved.map((r) => r.current));
  });
});
