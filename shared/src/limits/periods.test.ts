import { describe, expect, it } from 'vitest';
import { BUCKETS_PER_WINDOW, bucketMsOf, calendarPeriod, WINDOW_MS } from './periods';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('sliding windows', () => {
  it('split every window into 60 whole-millisecond buckets', () => {
    for (const window of Object.keys(WINDOW_MS) as Array<keyof typeof WINDOW_MS>) {
      const bucket = bucketMsOf(window);
      expect(Number.isInteger(bucket)).toBe(true);
      expect(bucket * BUCKETS_PER_WINDOW).toBe(WINDOW_MS[window]);
    }
    expect(bucketMsOf('1m')).toBe(1000);
    expect(bucketMsOf('1d')).toBe(24 * 60 * 1000);
  });
});

describe('calendar periods (UTC)', () => {
  it('a day runs midnight to midnight UTC, whatever the time of day', () => {
    const p = calendarPeriod('daily', at('2026-11-22T23:59:59.999Z'));
    expect(p.id).toBe('2026-11-22');
    expect(iso(p.startMs)).toBe('2026-11-22T00:00:00.000Z');
    expect(iso(p.endMs)).toBe('2026-11-23T00:00:00.000Z');
    expect(calendarPeriod('daily', at('2026-11-23T00:00:00.000Z')).id).toBe('2026-11-23');
  });

  it('a week runs Monday to Monday', () => {
    // 2026-11-22 is a Sunday: its week began on Monday 16th.
    const sunday = calendarPeriod('weekly', at('2026-11-22T12:00:00Z'));
    expect(iso(sunday.startMs)).toBe('2026-11-16T00:00:00.000Z');
    expect(iso(sunday.endMs)).toBe('2026-11-23T00:00:00.000Z');
    const monday = calendarPeriod('weekly', at('2026-11-23T00:00:00Z'));
    expect(iso(monday.startMs)).toBe('2026-11-23T00:00:00.000Z');
    expect(monday.id).not.toBe(sunday.id);
    // A week across New Year keeps one id.
    expect(calendarPeriod('weekly', at('2026-12-31T10:00:00Z')).id).toBe(
      calendarPeriod('weekly', at('2027-01-03T23:00:00Z')).id,
    );
  });

  it('a month runs from the 1st, whatever its length', () => {
    const feb = calendarPeriod('monthly', at('2028-02-29T08:00:00Z'));
    expect(feb.id).toBe('2028-02');
    expect(iso(feb.endMs)).toBe('2028-03-01T00:00:00.000Z');
    const dec = calendarPeriod('monthly', at('2026-12-31T23:59:59Z'));
    expect(iso(dec.endMs)).toBe('2027-01-01T00:00:00.000Z');
    expect(calendarPeriod('monthly', at('2027-01-01T00:00:00Z')).id).toBe('2027-01');
  });
});
