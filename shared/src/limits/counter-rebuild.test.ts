import { describe, expect, it } from 'vitest';
import { rebuildAdditions } from './counter-rebuild';

const DAY = 86_400_000;
/** Wednesday 18 November 2026, 10:00 UTC: its week began Monday the 16th. */
const T0 = Date.parse('2026-11-18T10:00:00.000Z');
const dayOf = (iso: string) => Date.parse(`${iso}T00:00:00.000Z`) / DAY;
const row = (iso: string, requests: number, weightedTokens: number, apiKeyId: string | null = 'k1') => ({
  apiKeyId,
  userId: 'u1',
  day: dayOf(iso),
  requests,
  weightedTokens,
});

function amounts(rows: ReturnType<typeof row>[]) {
  return Object.fromEntries(rebuildAdditions(rows, T0).map((a) => [a.key, a.amount]));
}

describe('rebuildAdditions', () => {
  it("puts each day's counts on the day, week and month counters of the periods that hold the stamp", () => {
    const got = amounts([
      row('2026-11-18', 3, 300), // today
      row('2026-11-17', 2, 50), // this week, not today
      row('2026-11-05', 1, 7), // this month only
      row('2026-10-31', 9, 900), // neither: before the week and the month
    ]);
    expect(got).toEqual({
      'sluice:rl:user:u1:req:2026-11-18': 3,
      'sluice:rl:user:u1:tok:2026-11-18': 300,
      'sluice:rl:user:u1:tok:w2026-11-16': 350,
      'sluice:rl:user:u1:req:2026-11': 6,
      'sluice:rl:user:u1:tok:2026-11': 357,
      'sluice:rl:key:k1:req:2026-11-18': 3,
      'sluice:rl:key:k1:tok:2026-11-18': 300,
      'sluice:rl:key:k1:tok:w2026-11-16': 350,
      'sluice:rl:key:k1:req:2026-11': 6,
      'sluice:rl:key:k1:tok:2026-11': 357,
    });
  });

  it("sums a user's keys on the user's counters, and keyless (console) calls on the user's only", () => {
    const got = amounts([
      row('2026-11-18', 1, 10, 'k1'),
      row('2026-11-18', 2, 20, 'k2'),
      row('2026-11-18', 4, 40, null),
    ]);
    expect(got['sluice:rl:user:u1:req:2026-11-18']).toBe(7);
    expect(got['sluice:rl:key:k1:req:2026-11-18']).toBe(1);
    expect(got['sluice:rl:key:k2:tok:2026-11']).toBe(20);
    expect(Object.keys(got).filter((k) => k.includes(':key:'))).toHaveLength(10);
  });

  it('counts a week that began last month, and writes nothing for nothing', () => {
    // Tuesday 1 December 2026: its week began Monday 30 November.
    const t = Date.parse('2026-12-01T08:00:00.000Z');
    const got = Object.fromEntries(
      rebuildAdditions([row('2026-11-30', 1, 40), row('2026-12-01', 0, 0)], t).map((a) => [a.key, a.amount]),
    );
    expect(got).toEqual({ 'sluice:rl:user:u1:tok:w2026-11-30': 40, 'sluice:rl:key:k1:tok:w2026-11-30': 40 });
  });

  it('writes each counter as one bucket that expires a day after its period', () => {
    const [daily] = rebuildAdditions([row('2026-11-18', 1, 0, null)], T0);
    expect(daily).toMatchObject({ current: 0, bucketsInWindow: 1 });
    expect(daily?.expiryMs).toBe(Date.parse('2026-11-19T00:00:00.000Z') - T0 + DAY);
  });
});
